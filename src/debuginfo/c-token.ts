/** A token of C source text (c-source-tokens.ts makes them). */
export interface CToken {
  /** 'id' identifiers and keywords, 'num' numbers, 'str' string literal (its length), 'chr' char constant, 'p' punctuation */
  kind: 'id' | 'num' | 'str' | 'chr' | 'p';
  text: string;
  line: number;
  /** the file the token came from ('' = the file being read) */
  file: string;
  /** str: bytes including the terminating NUL; chr: the value */
  value?: number;
}
