; Retro Debug's open Sprinter boot ROM, stage 1 (ROM page 12, where the CPU starts at power-on).
; Written for this project from the MAME driver's behaviour (docs/sprinter-rom.md); no Peters Plus code.
;
; MAME's sprinter driver (0.276) stays in its "configuration load" phase until 4,096 memory writes went
; outside the Z84C015's chip select 0; then it restarts the machine in ROM page 8 (bios.s).
	.module boot
	.area BOOT (ABS)
	.org 0x0000
	di
	ld sp,#0xF000
	; Z84C015 system control: CSBR = 0xFE (CS0 below 0xF000, CS1 above), MCR = 3 (both chip selects decoded)
	ld bc,#0x00EE		; SCRP: register pointer
	ld a,#2			; CSBR
	out (c),a
	inc c			; SCDP: its data
	ld a,#0xFE
	out (c),a
	dec c
	ld a,#3			; MCR
	out (c),a
	inc c
	out (c),a
	; the 4,096 writes the configuration phase counts (4,095 are not enough)
	ld hl,#0xF000
	ld de,#4096
1$:	ld (hl),#0
	inc hl
	dec de
	ld a,d
	or e
	jr nz,1$
2$:	jr 2$			; the driver restarts the machine in ROM page 8 meanwhile
