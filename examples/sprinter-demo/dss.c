#include "dss.h"

void dss_putc(char c) __sdcccall(1) __naked
{
    (void)c; /* in A */
    __asm
        ld c, #0x5B
        rst 0x10
        ret
    __endasm;
}

void dss_puts(const char *text) __sdcccall(1) __naked
{
    (void)text; /* in HL */
    __asm
        ld c, #0x5C
        rst 0x10
        ret
    __endasm;
}

char dss_waitkey(void) __sdcccall(1) __naked
{
    __asm
        ld c, #0x30
        rst 0x10
        ret
    __endasm;
}

char dss_scankey(void) __sdcccall(1) __naked
{
    __asm
        ld c, #0x31
        rst 0x10
        ret
    __endasm;
}
