;; Start-up code of the Sprinter demo (a DSS .EXE, built by sdasz80). DSS (or the open ROM)
;; loads the code at 0x8100, sets SP from the header and IX to the command line, and jumps here.
        .module crt0
        .globl  _main
        .globl  l__INITIALIZER, s__INITIALIZER, s__INITIALIZED
        .globl  l__DATA, s__DATA

        .area   _HEADER (ABS)
        .org    0x8100
entry:
        call    gsinit
        call    _main
        ld      b, #0               ; exit code 0
        ld      c, #0x41            ; DSS EXIT
        rst     0x10

        ;; Area order: code first (at --code-loc), then RAM areas (at --data-loc)
        .area   _HOME
        .area   _CODE
        .area   _INITIALIZER
        .area   _GSINIT
        .area   _GSFINAL
        .area   _DATA
        .area   _INITIALIZED
        .area   _BSEG
        .area   _BSS
        .area   _HEAP

        .area   _GSINIT
gsinit:
        ld      bc, #l__DATA        ; zero the uninitialised globals
        ld      a, b
        or      a, c
        jr      z, zeroed
        ld      hl, #s__DATA
        ld      (hl), #0
        dec     bc
        ld      a, b
        or      a, c
        jr      z, zeroed
        ld      de, #s__DATA + 1
        ldir
zeroed:
        ld      bc, #l__INITIALIZER ; copy initialised globals to RAM
        ld      a, b
        or      a, c
        jr      z, gsinit_next
        ld      de, #s__INITIALIZED
        ld      hl, #s__INITIALIZER
        ldir
gsinit_next:

        .area   _GSFINAL
        ret
