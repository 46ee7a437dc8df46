/** Entry of the language server bundle (dist/lsp-server.js): `node dist/lsp-server.js --stdio`. */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server.js';

startServer(createConnection(ProposedFeatures.all));
