/* The DSS console calls (RST 10h, function in C) the open Sprinter ROM answers; docs/sprinter-rom.md. */
#ifndef DSS_H
#define DSS_H
void dss_putc(char c) __sdcccall(1) __naked;
void dss_puts(const char *text) __sdcccall(1) __naked;
char dss_waitkey(void) __sdcccall(1) __naked;
char dss_scankey(void) __sdcccall(1) __naked;
#endif
