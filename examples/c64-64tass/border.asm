; one step of the border colour, kept in a counter too
border_up
        inc counter                    ; LINE:count
        lda counter
        sta $d020
        rts
counter .byte 0
