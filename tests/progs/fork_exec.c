/* fork_exec.c MODE: processes for the children tests.
     fork       allocates 100 KB (inherited), forks; the child allocates
                200 KB more and exits; the parent waits, allocates 30 KB,
                and exits. Each prints "pid <role> <pid>".
     exec N     allocates 70 KB, then execs itself as "exec N-1" (N > 0);
                "exec 0" allocates 40 KB and exits. The pid never changes.
     execvp     allocates 70 KB, then execvp()s itself as "exec 0" by its
                base name: the caller puts missing directories first in
                PATH, so execve fails there before it works.
     forkexec   forks a child that execs at once "exec 0" (as system() and
                posix_spawn do) and waits for it; allocates 20 KB.
     shared     forks; both processes allocate and exit (for a name without
                %p, where both write the same file).
   Re-execs itself through argv[0] (under Valgrind /proc/self/exe is the
   tool), so run it by an absolute path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void* keep[4];

static void say(const char* role)
{
   printf("pid %s %d\n", role, (int)getpid());
   fflush(stdout);
}

static void reexec(const char* self, int n)
{
   char arg[16];
   snprintf(arg, sizeof arg, "%d", n);
   execl(self, self, "exec", arg, (char*)NULL);
   perror("execl");
   exit(3);
}

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "fork";
   pid_t child;
   int status = 0;

   if (strcmp(mode, "execvp") == 0) {
      const char* base = strrchr(argv[0], '/');
      keep[0] = malloc(70000);
      say("pre-exec");
      base = base ? base + 1 : argv[0];
      execlp(base, base, "exec", "0", (char*)NULL);
      perror("execlp");
      return 3;
   }
   if (strcmp(mode, "exec") == 0) {
      int n = argc > 2 ? atoi(argv[2]) : 0;
      keep[0] = malloc(n > 0 ? 70000 : 40000);
      say(n > 0 ? "pre-exec" : "post-exec");
      if (n > 0)
         reexec(argv[0], n - 1);
      free(keep[0]);
      return 0;
   }

   keep[0] = malloc(strcmp(mode, "forkexec") == 0 ? 20000 : 100000);
   child = fork();
   if (child < 0)
      return 1;
   if (child == 0) {
      if (strcmp(mode, "forkexec") == 0)
         reexec(argv[0], 0);
      keep[1] = malloc(200000);
      say("child");
      free(keep[1]);
      free(keep[0]);
      return 0;
   }
   waitpid(child, &status, 0);
   keep[2] = malloc(30000);
   say("parent");
   free(keep[2]);
   free(keep[0]);
   return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
