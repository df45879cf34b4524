/* realloc_zero.c: realloc(p, 0), whose meaning is an option of Valgrind's
   core from 3.21 on (--realloc-zero-bytes-frees): with yes (the default on
   Linux, as glibc) it frees p and returns NULL; with no it returns a block
   of one byte. The heap at exit tells which: 100 bytes, or 101. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
   char* p = malloc(5000);
   char* q = realloc(p, 0);           /* kept live to the end if a block */
   char* r = malloc(100);
   printf("realloc(p, 0) %s\n", q ? "returned a block" : "returned NULL");
   return r == NULL;
}
