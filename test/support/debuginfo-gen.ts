/**
 * Synthetic debug info of any size in the exact record syntax SDCC (.cdb)
 * and ld65 (.dbg, version 2) write, for the scale benchmark and for tests
 * that compare the index against a brute-force reading. Functions are 12
 * bytes of code with three C lines each (4 bytes apiece), ten per module,
 * with a parameter, a frame local and one global each. As in real output,
 * most records are the assembler's lines (SDCC's `L:A`, ld65's `line`
 * records of the `.s` file): about four a C line (test/fixtures built by
 * SDCC 4.2 and cc65 2.19 have 4.3 and 7).
 */

export const CODE_START = 0x0800;
const DATA_START = 0xc800;
const PER_MODULE = 10;
const FN_BYTES = 12;

const hex = (n: number) => n.toString(16).toUpperCase();

/** First C line of function `i` in its module's file. */
export function firstLine(i: number): number {
  return 10 + (i % PER_MODULE) * 6;
}

export function moduleFile(i: number): string {
  return `mod${Math.floor(i / PER_MODULE)}.c`;
}

export function sdccCdb(functions: number): string {
  const out: string[] = [];
  for (let i = 0; i < functions; i++) {
    const m = Math.floor(i / PER_MODULE);
    const mod = `mod${m}`;
    const at = CODE_START + i * FN_BYTES;
    const line = firstLine(i);
    if (i % PER_MODULE === 0) {
      out.push(`M:${mod}`);
      out.push(`T:F${mod}$pt${m}[({0}S:S$x$0_0$0({2}SI:S),Z,0,0)({2}S:S$y$0_0$0({2}SI:S),Z,0,0)]`);
    }
    out.push(`F:G$fn${i}$0_0$0({2}DF,SI:S),C,0,2,0,0,0`);
    out.push(`S:L${mod}.fn${i}$a$1_0$0({2}SI:S),R,0,0,[l,h]`);
    out.push(`S:L${mod}.fn${i}$x$1_0$${i + 1}({2}SI:S),B,1,-2`);
    out.push(`S:G$g${i}$0_0$0({2}SI:S),E,0,0`);
    out.push(`S:G$p${i}$0_0$0({4}STpt${m}:S),E,0,0`);
    out.push(`L:G$g${i}$0$0:${hex(DATA_START + i * 6)}`);
    out.push(`L:G$p${i}$0$0:${hex(DATA_START + i * 6 + 2)}`);
    out.push(`L:C$${mod}.c$${line}$0_0$${i + 1}:${hex(at)}`);
    out.push(`L:G$fn${i}$0$0:${hex(at)}`);
    for (let k = 0; k < 3; k++) {
      if (k) out.push(`L:C$${mod}.c$${line + k * 2}$1_0$${i + 1}:${hex(at + k * 4)}`);
      // four one-byte instructions a C line, as SDCC's output has about four assembler lines per C line
      for (let b = 0; b < 4; b++) out.push(`L:A$${mod}$${i * 12 + k * 4 + b}:${hex(at + k * 4 + b)}`);
    }
    out.push(`L:XG$fn${i}$0$0:${hex(at + FN_BYTES - 1)}`);
  }
  return `${out.join('\n')}\n`;
}

export function cc65Dbg(functions: number): string {
  const modules = Math.ceil(functions / PER_MODULE);
  const out: string[] = ['version\tmajor=2,minor=0'];
  const files: string[] = [];
  const recs: Record<string, string[]> = { line: [], mod: [], span: [], scope: [], sym: [], csym: [] };
  const add = (kind: string, body: string) => recs[kind].push(`${kind}\tid=${recs[kind].length},${body}`);
  for (let m = 0; m < modules; m++) {
    files.push(`file\tid=${2 * m},name="mod${m}.s",size=4000,mtime=0x6B0EB2C1,mod=${m}`);
    files.push(`file\tid=${2 * m + 1},name="mod${m}.c",size=900,mtime=0x6B0EB2C1,mod=${m}`);
    add('mod', `name="mod${m}.o",file=${2 * m}`);
  }
  out.push(`info\tcsym=0,file=${files.length},lib=0,line=0,mod=${modules},scope=0,seg=2,span=0,sym=0,type=1`);
  out.push(...files);
  out.push(
    `seg\tid=0,name="CODE",start=0x${hex(CODE_START)},size=0x${hex(functions * FN_BYTES)},addrsize=absolute,type=ro`,
  );
  out.push(`seg\tid=1,name="DATA",start=0x${hex(DATA_START)},size=0x${hex(functions * 2)},addrsize=absolute,type=rw`);
  for (let m = 0; m < modules; m++) {
    const n = Math.min(PER_MODULE, functions - m * PER_MODULE);
    add('scope', `name="",mod=${m},size=${n * FN_BYTES}`);
    const moduleScope = recs.scope.length - 1;
    for (let k = 0; k < n; k++) {
      const i = m * PER_MODULE + k;
      const offset = i * FN_BYTES;
      add('span', `seg=0,start=${offset},size=${FN_BYTES},type=1`);
      const whole = recs.span.length - 1;
      add(
        'sym',
        `name="_fn${i}",addrsize=absolute,size=${FN_BYTES},scope=${moduleScope},def=1,val=0x${hex(CODE_START + offset)},seg=0,type=lab`,
      );
      const fnSym = recs.sym.length - 1;
      add(
        'sym',
        `name="_g${i}",addrsize=absolute,scope=${moduleScope},def=2,val=0x${hex(DATA_START + i * 2)},seg=1,type=lab`,
      );
      add(
        'scope',
        `name="_fn${i}",mod=${m},type=scope,size=${FN_BYTES},parent=${moduleScope},sym=${fnSym},span=${whole}`,
      );
      const scope = recs.scope.length - 1;
      add('csym', `name="fn${i}",scope=${scope},type=0,sc=ext,sym=${fnSym}`);
      add('csym', `name="value",scope=${scope},type=0,sc=auto`);
      add('csym', `name="local",scope=${scope},type=0,sc=auto,offs=-2`);
      for (let l = 0; l < 3; l++) {
        add('span', `seg=0,start=${offset + l * 4},size=4,type=1`);
        const span = recs.span.length - 1;
        add('line', `file=${2 * m + 1},line=${firstLine(i) + l * 2},type=1,span=${span}`);
        // the assembler's own lines: one an instruction, with its own span, and a label and a comment without
        // (ld65 writes about seven assembler lines and six spans a C line)
        for (let b = 0; b < 4; b++) {
          add('span', `seg=0,start=${offset + l * 4 + b},size=1`);
          add('line', `file=${2 * m},line=${i * 20 + l * 6 + b},span=${recs.span.length - 1}`);
        }
        add('line', `file=${2 * m},line=${i * 20 + l * 6 + 4}`);
        add('line', `file=${2 * m},line=${i * 20 + l * 6 + 5}`);
      }
    }
  }
  for (const kind of ['mod', 'scope', 'span', 'sym', 'csym', 'line']) out.push(...recs[kind]);
  return `${out.join('\n')}\n`;
}
