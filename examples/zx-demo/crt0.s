;; Start-up code for the Retro Debug ZX demo ROM (assembled with sdasz80).
;; The ROM sits at 0x0000; globals live in RAM from 0x8000 (--data-loc).
;; It sets up a stack, initialises the globals and calls main forever.
        .module crt0
        .globl  _main
        .globl  l__INITIALIZER, s__INITIALIZER, s__INITIALIZED
        .globl  l__DATA, s__DATA

        .area   _HEADER (ABS)
        .org    0x0000
start:
        di                          ; no interrupt handlers in this demo
        ld      sp, #0xFFF0
        jp      boot

        .org    0x0038              ; IM 1 interrupt: just return
        ei
        reti

        .org    0x0066              ; NMI: just return
        retn

boot:
        call    init_globals
        call    _main
stop_here:
        halt
        jr      stop_here

        ;; Link order: code areas at --code-loc, RAM areas at --data-loc.
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

        .area   _CODE
init_globals:
        ld      hl, #s__DATA        ; clear uninitialised globals byte by byte
        ld      bc, #l__DATA
clear_loop:
        ld      a, b
        or      a, c
        jr      z, copy_initialised
        ld      (hl), #0
        inc     hl
        dec     bc
        jr      clear_loop
copy_initialised:
        ld      bc, #l__INITIALIZER ; then copy initial values from ROM to RAM
        ld      a, b
        or      a, c
        ret     z
        ld      hl, #s__INITIALIZER
        ld      de, #s__INITIALIZED
        ldir
        ret
