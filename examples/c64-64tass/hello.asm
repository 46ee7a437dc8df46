; Retro Debug example for 64tass: prints a greeting and counts the border colour up.
; Build: 64tass --cbm-prg --line-numbers -o build/hello.prg --list=build/hello.lst hello.asm
        * = $0801
        .word basic_end, 2026          ; a BASIC line: 2026 SYS 2061
        .byte $9e
        .text "2061", 0
basic_end
        .word 0

start   ldx #0
print   lda greeting,x                 ; LINE:print
        beq printed
        jsr $ffd2
        inx
        bne print
printed jsr border_up                  ; LINE:call
        rts

greeting .text "HELLO FROM 64TASS", 13, 0

        .include "border.asm"
