/** Tool group `dos`: a DOS guest in DOSBox / DOSBox-X driven without touching the desktop. */
import type { ToolDef } from '../tool-kit.js';
import { dosInputTools } from './dos-input.js';
import { dosMemoryTools } from './dos-memory.js';
import { dosScreenTools } from './dos-screen.js';
import { dosSessionTools } from './dos-session.js';

export const dosTools: ToolDef[] = [...dosSessionTools, ...dosMemoryTools, ...dosScreenTools, ...dosInputTools];
