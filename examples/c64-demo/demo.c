/* Retro Debug C64 demo (cc65): counts up a table of squares on the screen,
   then waits for a key. `retro-debug demo --machine c64` builds it with cc65
   and debugs it on the built-in C64: no emulator needs to be installed. */
#include <stdio.h>
#include <conio.h>

unsigned int squares[8];
unsigned char last_key;

unsigned int square(unsigned char n) {
  unsigned int result;
  result = (unsigned int)n * n;            /* DEMO:square */
  return result;
}

int main(void) {
  unsigned char i;
  bgcolor(COLOR_BLACK);
  bordercolor(COLOR_BLUE);
  textcolor(COLOR_GREEN);
  clrscr();
  cputs("RETRO DEBUG C64 DEMO\r\n\r\n");
  for (i = 0; i < 8; i++) {
    squares[i] = square(i);                /* DEMO:loop */
    printf("%u SQUARED IS %u\n", i, squares[i]);
  }
  printf("\nPRESS A KEY\n");
  last_key = cgetc();
  printf("YOU PRESSED %c\n", last_key);    /* DEMO:key */
  return 0;
}
