; Retro Debug's open Sprinter BIOS, stage 2 (ROM page 8, mapped in window 0 after the configuration phase).
; Written for this project (docs/sprinter-rom.md); no Peters Plus or Estex code. It opens the port decoder,
; sets an 80x32 text screen, copies the DSS program the session staged in ROM pages 0.. to its load address,
; builds its PSP and starts it as DSS's EXEC does, and answers the console calls of DSS's RST 10h.
;
; The session fills PARAMS (below) and the program's code in ROM pages 0..; the build puts the font at FONT.
	.module bios
	.area BIOS (ABS)

PARAMS	= 0x3F00		; 'R','D','S',1, load, start, stack, pages, last page bytes, cmdline (len + text) at +16
P_LOAD	= PARAMS+4
P_START	= PARAMS+6
P_STACK	= PARAMS+8
P_PAGES	= PARAMS+10
P_LAST	= PARAMS+11
P_CMD	= PARAMS+16
FONT	= 0x3000		; 256 glyphs x 8 rows, one byte a row (bit 7 = left pixel)
COPIER	= 0x4000		; RAM: below any load address we accept (0x4100 and up), and the PSP's place later

GPAGE	= 0x50			; a graphics page: writes land in VRAM row PORT_Y, column = address & 0x3FF
TEXTCOLS = 80
TEXTROWS = 32
ATTR	= 0x07			; the text attribute: pens 0x407 (paper) and 0x507 (ink)
; our variables, in VRAM row 0 beside char 0's glyph (columns 0x20..): cursor x, y, the last key seen
V_X	= 0x20
V_Y	= 0x21
V_KEY	= 0x22

	.org 0x0000
	di
	jp start

	.org 0x0008		; BIOS calls: none here
	ld a,#1
	scf
	ret

	.org 0x0010		; DSS calls: function in C
	jp dss

	.org 0x0038		; IM 1 (interrupts are never enabled by us)
	ei
	reti

	.org 0x0040		; with no program staged the BIOS waits here, ready (docs/sprinter.md: bridgeLoad.bootAddress)
ready:	jr ready

start:
	ld sp,#0x8000		; W1 (RAM page 5); W3 is the decoder's RAM page 0x40 until the first IN
	ld hl,#0xC000		; every port "no device" (code 0) first: the page holds whatever RAM held
	ld de,#0xC001
	ld bc,#0x3FFF
	ld (hl),#0
	ldir
	ld hl,#decoder
1$:	ld e,(hl)
	inc hl
	ld d,(hl)
	inc hl
	ld a,d
	and e
	inc a
	jr z,2$			; 0xFFFF ends the list
	ld a,(hl)
	inc hl
	push hl
	ld hl,#a15_a13		; the entry for every A15 A14 A13: a port reached by OUT (n),A has A there
	ld b,#8
5$:	push hl
	push de
	ld c,(hl)
	inc hl
	ld h,(hl)
	ld l,c
	add hl,de
	ld de,#0xC000
	add hl,de
	ld (hl),a
	pop de
	pop hl
	inc hl
	inc hl
	djnz 5$
	pop hl
	jr 1$
2$:	in a,(0x7B)		; the first IN opens the decoder: W3 shows RAM page 0 from now on
	ld sp,#0xFF00
	call screen_init
	; the program's code, from ROM pages 0.. to its load address, by a copier running in RAM
	ld a,(PARAMS)
	cp #'R'
	jr nz,no_program
	ld hl,#copier
	ld de,#COPIER
	ld bc,#copier_end-copier
	ldir
	ld de,(P_LOAD)
	ld a,(P_PAGES)
	ld b,a
	ld hl,(P_LAST)
	jp COPIER

no_program:
	ld hl,#msg_none
	call puts
	jp ready

; Runs in RAM at COPIER: W0 shows ROM page C while it copies. In: DE = destination, B = pages, HL = last page bytes.
copier:
	ld c,#0
1$:	push bc
	push hl
	ld a,c
	xor #8			; ROM page = register ^ 8 while the system page bit is clear
	ld bc,#0x005C
	out (c),a
	pop hl
	pop bc
	push bc
	push hl
	ld a,b
	dec a
	jr nz,2$
	ld b,h			; the last page: only its bytes
	ld c,l
	jr 3$
2$:	ld bc,#0x4000
3$:	ld hl,#0x0000
	ldir
	pop hl
	pop bc
	inc c
	djnz 1$
	xor a			; ROM page 8 (this BIOS) again
	ld bc,#0x005C
	out (c),a
	jp loaded
copier_end:

loaded:
	; the PSP as DSS builds it: 256 zero bytes below the load address, the command line at load - 0x80
	ld hl,(P_LOAD)
	dec h
	ld d,h
	ld e,l
	inc de
	ld (hl),#0
	ld bc,#255
	ldir
	ld hl,(P_LOAD)
	ld de,#-0x80
	add hl,de
	push hl
	ex de,hl
	ld hl,#P_CMD
	ld bc,#128
	ldir
	pop ix			; IX = load - 0x80, the command line
	ld sp,(P_STACK)
	ld hl,#exit_ret
	push hl			; a RET from the program exits with code 0
	ld hl,(P_START)
	xor a
	ld b,a
	ld c,a
	ld d,a
	ld e,a
	jp (hl)

exit_ret:
	ld b,#0
exited:				; B = exit code; the machine stays here
	di
	jr exited

; ---- DSS RST 10h: C = function; CF = 1 and A = error code for what is not here ----
dss:
	push af
	ld a,c
	cp #0x5B
	jr z,f_putchar
	cp #0x5C
	jr z,f_pchars
	cp #0x30
	jr z,f_waitkey
	cp #0x31
	jr z,f_scankey
	cp #0x41
	jr z,f_exit
	or a
	jr z,f_version
	pop af
	ld a,#1			; "invalid function"
	scf
	ret

f_putchar:
	pop af
	call putc
	or a
	ret

f_pchars:			; HL -> zero-terminated text (read before each character: it may sit in the window putc uses)
	pop af
	push hl
1$:	ld a,(hl)
	or a
	jr z,2$
	call putc
	inc hl
	jr 1$
2$:	pop hl
	or a
	ret

f_waitkey:			; A = the next key pressed (ASCII), after it is released
	pop af
1$:	call new_key
	or a
	jr z,1$
	or a
	ret

f_scankey:			; A = a key pressed since the last call, or 0 (Z set)
	pop af
	call new_key
	or a
	ret

f_exit:				; B = exit code
	pop af
	jr exited

f_version:
	pop af
	ld hl,#0x0100		; "1.00"
	xor a
	ret

; ---- the screen: an 80x32 text mode in VRAM (mode table rows 1..111, columns 0x300 + 4 * square row) ----

; Maps the graphics page into a window the stack is not in: IY = its base, BC = its page port; the old page
; is pushed below the return address (unmap restores it).
vmap:				; keeps DE
	push de
	ld hl,#0
	add hl,sp
	ld a,h
	ld bc,#0x00E2		; W3, unless the stack is there
	ld iy,#0xC000
	cp #0xC0
	jr c,1$
	ld bc,#0x00A2		; then W1
	ld iy,#0x4000
1$:	in a,(c)
	pop de
	pop hl			; our return address
	push af			; the page the window showed
	push bc
	ld a,#GPAGE
	out (c),a
	jp (hl)

vunmap:				; keeps DE
	pop hl
	pop bc
	pop af
	out (c),a
	jp (hl)

; PORT_Y = A: which VRAM row the graphics page writes (BC kept)
set_y:
	push bc
	ld bc,#0x0089
	out (c),a
	pop bc
	ret

screen_init:
	call vmap
	; mode table: text squares for 80 columns (rows 1..80) x 32 rows, blank elsewhere
	ld d,#1			; D = VRAM row
1$:	ld a,d
	call set_y
	push iy
	pop hl
	ld bc,#0x0300
	add hl,bc
	ld e,#0			; E = square row
2$:	ld a,d
	cp #TEXTCOLS+1
	jr nc,3$
	ld a,e
	cp #TEXTROWS
	jr nc,3$
	ld (hl),#0x10		; text, 80 columns, font block 0
	inc hl
	ld (hl),#' '
	inc hl
	ld (hl),#0		; attribute row 0
	inc hl
	ld (hl),#0
	inc hl
	jr 4$
3$:	ld (hl),#0xFC		; blank
	inc hl
	inc hl
	inc hl
	inc hl
4$:	inc e
	ld a,e
	cp #40
	jr nz,2$
	inc d
	ld a,d
	cp #112
	jr nz,1$
	; the font: glyph c at VRAM row c, columns 0..7
	ld hl,#FONT
	xor a
5$:	push af
	call set_y
	push iy
	pop de
	ld bc,#8
	ldir
	pop af
	inc a
	jr nz,5$
	; row 0: the attribute, our variables, and the text pens (row ATTR: paper at 0x3F0, ink at 0x3F4)
	xor a
	call set_y
	ld 0x18(iy),#ATTR
	ld V_X(iy),#0
	ld V_Y(iy),#0
	ld V_KEY(iy),#0
	ld a,#ATTR
	call set_y
	push iy
	pop hl
	ld bc,#0x03F0
	add hl,bc
	ld (hl),#0x10		; paper: dark blue (R, G, B)
	inc hl
	ld (hl),#0x20
	inc hl
	ld (hl),#0x60
	inc hl
	inc hl
	ld (hl),#0xE0		; ink: light grey
	inc hl
	ld (hl),#0xE0
	inc hl
	ld (hl),#0xE0
	inc hl
	inc hl
	; MAME draws text with the flash pens (0x600/0x700 + attribute) every other 16 frames: the same colours there
	ld (hl),#0x10		; flash paper
	inc hl
	ld (hl),#0x20
	inc hl
	ld (hl),#0x60
	inc hl
	inc hl
	ld (hl),#0xE0		; flash ink
	inc hl
	ld (hl),#0xE0
	inc hl
	ld (hl),#0xE0
	call vunmap
	ret

; putc: A = character; CR returns, LF moves down, BS moves back; the screen scrolls at the bottom.
putc:
	push bc
	push de
	push hl
	push iy
	ld e,a
	call vmap
	xor a
	call set_y
	ld a,e
	ld l,V_X(iy)
	ld h,V_Y(iy)
	cp #13
	jr nz,1$
	ld l,#0
	jr 6$
1$:	cp #10
	jr nz,2$
	inc h
	jr 6$
2$:	cp #8
	jr nz,3$
	ld a,l
	or a
	jr z,6$
	dec l
	jr 6$
3$:	ld a,l			; the character's square: VRAM row 1 + x, column 0x301 + 4 * y
	inc a
	call set_y
	push hl
	ld a,h
	add a,a
	add a,a
	ld c,a
	ld b,#0
	push iy
	pop hl
	add hl,bc
	ld bc,#0x0301
	add hl,bc
	ld (hl),e
	pop hl
	inc l
	ld a,l
	cp #TEXTCOLS
	jr c,6$
	ld l,#0
	inc h
6$:	ld a,h
	cp #TEXTROWS
	jr c,7$
	ld h,#TEXTROWS-1
	push hl
	call scroll
	pop hl
7$:	xor a
	call set_y
	ld V_X(iy),l
	ld V_Y(iy),h
	call vunmap
	pop iy
	pop hl
	pop de
	pop bc
	ret

; moves every text row up by one and clears the last (reads of a graphics page return VRAM's RAM copy)
scroll:
	ld d,#1
1$:	ld a,d
	call set_y
	push iy
	pop hl
	ld bc,#0x0301
	add hl,bc		; HL = row 0's character
	ld b,#TEXTROWS-1
2$:	inc hl
	inc hl
	inc hl
	inc hl
	ld a,(hl)
	dec hl
	dec hl
	dec hl
	dec hl
	ld (hl),a
	inc hl
	inc hl
	inc hl
	inc hl
	djnz 2$
	ld (hl),#' '
	inc d
	ld a,d
	cp #TEXTCOLS+1
	jr nz,1$
	ret

puts:				; HL -> zero-terminated text, from the BIOS itself
	ld a,(hl)
	or a
	ret z
	call putc
	inc hl
	jr puts

; ---- the keyboard: the ZX matrix at port 0xFE, eight half-rows ----

; A = the key that went down since the last call (ASCII), else 0. Z follows A.
new_key:
	push bc
	push de
	push hl
	push iy
	call scan
	ld e,a
	call vmap
	xor a
	call set_y
	ld a,e
	call fold		; a held letter whose case changes (shift let go first) is the same key
	ld d,a
	cp V_KEY(iy)
	ld V_KEY(iy),d
	jr nz,1$
	ld e,#0			; the same key is still down (or none): nothing new
1$:	call vunmap
	ld a,e
	pop iy
	pop hl
	pop de
	pop bc
	or a
	ret

; A in lower case when it is a letter
fold:
	cp #'A
	ret c
	cp #'Z+1
	ret nc
	add a,#0x20
	ret

; A = ASCII of the first key down (caps shift makes letters upper case), else 0
scan:
	ld hl,#keymap
	ld bc,#0xFEFE
	in a,(c)
	cpl
	and #1
	ld d,a			; D = caps shift down
	ld e,#8			; half-rows left
1$:	in a,(c)
	cpl
	push bc
	ld b,#5
2$:	rrca
	jr nc,3$
	ld c,a
	ld a,(hl)
	or a
	jr nz,4$		; a key that is not a shift
	ld a,c
3$:	inc hl
	djnz 2$
	pop bc
	rlc b			; the next half-row: FE FD FB F7 EF DF BF 7F
	dec e
	jr nz,1$
	xor a
	ret
4$:	pop bc
	cp #'a
	ret c
	dec d
	ret nz			; no caps shift: lower case
	sub #0x20
	ret

keymap:				; bit 0 first, half-rows 0xFE 0xFD 0xFB 0xF7 0xEF 0xDF 0xBF 0x7F
	.db 0, 'z, 'x, 'c, 'v
	.db 'a, 's, 'd, 'f, 'g
	.db 'q, 'w, 'e, 'r, 't
	.db '1, '2, '3, '4, '5
	.db '0, '9, '8, '7, '6
	.db 'p, 'o, 'i, 'u, 'y
	.db 13, 'l, 'k, 'j, 'h
	.db ' , 0, 'm, 'n, 'b

; the port decoder entries (RAM page 0x40 offset, device code): index bits are CNF(2) /WR A15 A14 A13 A7 A6 A5 A2-A0,
; with /DOS set (programs run above 0x4000)
decoder:
	.dw 0x040A
	.db 0xE8		; W0 page, port 0x82 write
	.dw 0x060A
	.db 0xE8		; and read
	.dw 0x042A
	.db 0xE9		; W1 page, 0xA2
	.dw 0x062A
	.db 0xE9
	.dw 0x044A
	.db 0xEA		; W2 page, 0xC2
	.dw 0x064A
	.db 0xEA
	.dw 0x046A
	.db 0xF0		; W3 page, 0xE2
	.dw 0x066A
	.db 0xF0
	.dw 0x0409
	.db 0xC4		; PORT_Y, 0x89 write
	.dw 0x0449
	.db 0xC5		; RGMOD, 0xC9 write
	.dw 0x046E
	.db 0xC2		; border, 0xFE write
	.dw 0x066E
	.db 0x40		; keyboard, 0xFE read (the half-row in A8-A15)
	.dw 0xFFFF
a15_a13:			; the index bits of A13 (0x10), A14 (0x80) and A15 (0x100)
	.dw 0x000, 0x010, 0x080, 0x090, 0x100, 0x110, 0x180, 0x190

msg_none:
	.ascii "Retro Debug open Sprinter ROM: no program was staged."
	.db 13, 10, 0
