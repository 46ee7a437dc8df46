/**
 * cc65's C view of the C64 chips (c64.h: `VIC`, `SID`, `CIA1`, `CIA2` as structs at fixed
 * addresses, fields from _vic2.h, _sid.h, _6526.h), so `VIC.bordercolor` resolves to $D020.
 * test/unit/c64-cc65-structs.test.ts checks every address against what cc65 itself compiles.
 */

interface ChipStruct {
  base: number;
  /** field name → offset; nested voice fields of the SID are written `v1.freq` */
  fields: Record<string, number>;
}

const seq = (names: string[], from = 0): Record<string, number> =>
  Object.fromEntries(names.map((n, i) => [n, from + i]));

const sprites = Array.from({ length: 8 }, (_, i) => [`spr${i}_x`, `spr${i}_y`]).flat();
const VIC_FIELDS = {
  ...seq(sprites),
  ...seq(
    ['spr_hi_x', 'ctrl1', 'rasterline', 'strobe_x', 'strobe_y', 'spr_ena', 'ctrl2', 'spr_exp_y', 'addr', 'irr', 'imr'],
    0x10,
  ),
  ...seq(['spr_bg_prio', 'spr_mcolor', 'spr_exp_x', 'spr_coll', 'spr_bg_coll', 'bordercolor'], 0x1b),
  ...seq(['bgcolor0', 'bgcolor1', 'bgcolor2', 'bgcolor3', 'spr_mcolor0', 'spr_mcolor1'], 0x21),
  ...seq(
    Array.from({ length: 8 }, (_, i) => `spr${i}_color`),
    0x27,
  ),
};

const voice = (n: number): Record<string, number> => {
  const at = (n - 1) * 7;
  return {
    [`v${n}.freq`]: at,
    [`v${n}.pw`]: at + 2,
    [`v${n}.ctrl`]: at + 4,
    [`v${n}.ad`]: at + 5,
    [`v${n}.sr`]: at + 6,
  };
};
const SID_FIELDS = {
  ...voice(1),
  ...voice(2),
  ...voice(3),
  ...seq(['flt_freq'], 0x15),
  ...seq(['flt_ctrl', 'amp', 'ad1', 'ad2', 'noise', 'read3'], 0x17),
};

const CIA_FIELDS = seq([
  'pra',
  'prb',
  'ddra',
  'ddrb',
  'ta_lo',
  'ta_hi',
  'tb_lo',
  'tb_hi',
  'tod_10',
  'tod_sec',
  'tod_min',
  'tod_hour',
  'sdr',
  'icr',
  'cra',
  'crb',
]);

export const CC65_CHIP_STRUCTS: Record<string, ChipStruct> = {
  VIC: { base: 0xd000, fields: VIC_FIELDS },
  SID: { base: 0xd400, fields: SID_FIELDS },
  CIA1: { base: 0xdc00, fields: CIA_FIELDS },
  CIA2: { base: 0xdd00, fields: CIA_FIELDS },
};

/** `VIC.bordercolor` → 0xD020; `SID.v1.freq` → 0xD400; undefined for anything else. */
export function cc65MemberAddress(expression: string): number | undefined {
  const m = /^(VIC|SID|CIA1|CIA2)\s*\.\s*([\w.\s]+)$/.exec(expression.trim());
  if (!m) return undefined;
  const chip = CC65_CHIP_STRUCTS[m[1]];
  const offset = chip.fields[m[2].replace(/\s+/g, '')];
  return offset === undefined ? undefined : chip.base + offset;
}
