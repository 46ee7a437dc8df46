/*
 * Retro Debug demo for MAME's ZX Spectrum driver (runs as the machine's ROM):
 * paints colour bands into the attribute area and shifts them every pass.
 * `retro-debug demo` stops at the DEMO:paint line inside paint_row().
 */
#define BITMAP ((unsigned char *)0x4000)   /* 6144 bytes of pixels */
#define ATTRS  ((unsigned char *)0x5800)   /* 24 rows x 32 attribute cells */

unsigned int passes;                 /* how many times all rows were painted */
unsigned char first_colour = 1;      /* paper colour of row 0 on this pass */
const char title[] = "RETRO DEBUG";

static unsigned char colour_of(unsigned char row)
{
    return ((row + first_colour) & 7) << 3;     /* paper colour, ink 0 */
}

void paint_row(unsigned char row, unsigned char attr)
{
    unsigned char *cell = ATTRS + (unsigned int)row * 32;
    unsigned char i;
    for (i = 0; i < 32; i++)
        cell[i] = attr;                         /* DEMO:paint */
}

void main(void)
{
    unsigned int i;
    unsigned char row;
    for (i = 0; i < 6144; i++)
        BITMAP[i] = (i & 0x100) ? 0xAA : 0x55;  /* fine stripes so the bands show texture */
    for (;;) {
        for (row = 0; row < 24; row++)
            paint_row(row, colour_of(row));     /* DEMO:loop */
        passes++;
        first_colour++;
    }
}
