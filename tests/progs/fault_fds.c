/* fault_fds.c DIR: a program that is hostile to its own file descriptors
   and working directory, as daemons are. It closes 0, 1 and 2, opens
   DIR/client.txt (which gets descriptor 0) and dup2's it over 1 to 9,
   changes directory to DIR/elsewhere, allocates 30000 bytes and writes one
   line; then it calls daemon(0, 0): the parent exits at once, the child
   moves to /, has 0-2 on /dev/null, writes its pid to DIR/daemon.pid,
   allocates 50000 bytes, frees nothing and exits. Everything the program
   writes is its own text: a profile byte in client.txt would mean memtime
   wrote through the program's descriptors. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void* volatile keep[4];

int main(int argc, char** argv)
{
   char path[4096];
   int fd, i;
   FILE* f;

   if (argc != 2)
      return 2;
   close(0);
   close(1);
   close(2);
   snprintf(path, sizeof path, "%s/client.txt", argv[1]);
   fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd != 0)
      return 3;
   for (i = 1; i <= 9; i++)
      if (dup2(fd, i) != i)
         return 4;
   snprintf(path, sizeof path, "%s/elsewhere", argv[1]);
   if (chdir(path) != 0)
      return 5;
   keep[0] = malloc(30000);
   memset(keep[0], 1, 30000);
   if (write(1, "client line\n", 12) != 12)
      return 6;
   if (daemon(0, 0) != 0)
      return 7;
   /* The daemon: a new process, in /, with 0-2 on /dev/null. */
   snprintf(path, sizeof path, "%s/daemon.pid", argv[1]);
   f = fopen(path, "w");
   if (f == NULL)
      return 8;
   keep[1] = malloc(50000);
   memset(keep[1], 2, 50000);
   fprintf(f, "%d\n", (int)getpid());
   fclose(f);
   return 0;
}
