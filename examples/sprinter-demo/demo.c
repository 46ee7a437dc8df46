/*
 * Retro Debug demo for MAME's Sprinter driver (a DSS .EXE: DSS, or the open Sprinter ROM, loads it at 0x8100):
 * prints a title, then one line per pass with a bar that grows and shrinks.
 * `retro-debug demo --machine sprinter` stops at the DEMO:paint line inside show_pass().
 */
#include "dss.h"

unsigned int passes;                 /* how many lines were printed */
const char title[] = "RETRO DEBUG ON THE SPRINTER\r\n";

static void put_number(unsigned int n)
{
    char digits[6];
    unsigned char i = 0;
    do {
        digits[i++] = '0' + n % 10;
        n /= 10;
    } while (n);
    while (i)
        dss_putc(digits[--i]);
}

void show_pass(unsigned int pass, unsigned char width)
{
    unsigned char i;
    dss_puts("PASS ");
    put_number(pass);
    dss_putc(' ');
    for (i = 0; i < width; i++)
        dss_putc('#');                          /* DEMO:paint */
    dss_puts("\r\n");
}

void main(void)
{
    dss_puts(title);
    for (;;) {
        unsigned char step = passes & 15;
        show_pass(passes, step < 8 ? step + 1 : 16 - step);   /* DEMO:loop */
        passes++;
    }
}
