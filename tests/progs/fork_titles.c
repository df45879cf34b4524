/* fork_titles.c: a parent with an early big peak (8 MB, freed) that forks
   three children which rename themselves, for t584. Known answers:
     parent  peak >= 8,000,000 B at its start; forks 3 children;
     child 1 renames itself by prctl(PR_SET_NAME, "mt-worker-1"), starts
             a thread that names itself "mt-thread" (a thread's name, not
             the process's title), holds 1,000,000 B, exits 0;
     child 2 rewrites its argv[0] in place ("mt: worker two"), holds
             2,000,000 B, exits 3;
     child 3 renames itself "mt-victim" (prctl), holds 3,000,000 B and
             sleeps in short naps (each one a chance for memtime to rewrite
             its profile) until the parent kills it with SIGKILL, which it
             does once the child's profile (argv[1], a printf pattern of the
             pid, e.g. "ft.%d.out") shows the 3,000,000 B: no race.
   The parent reaps all three with waitpid, then exits 0. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void *name_thread(void *arg)
{
    (void)arg;
    prctl(PR_SET_NAME, "mt-thread", 0, 0, 0);
    return NULL;
}

static void *hold(size_t n)
{
    char *p = malloc(n);
    memset(p, 1, n);
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    free(hold(8000000));
    pid_t kids[3];
    for (int i = 0; i < 3; i++) {
        kids[i] = fork();
        if (kids[i] < 0)
            return 1;
        if (kids[i] > 0)
            continue;
        if (i == 0) {
            prctl(PR_SET_NAME, "mt-worker-1", 0, 0, 0);
            pthread_t t;
            if (pthread_create(&t, NULL, name_thread, NULL) == 0)
                pthread_join(t, NULL);
            void *p = hold(1000000);
            usleep(100000);
            free(p);
            _exit(0);
        }
        if (i == 1) {
            size_t room = strlen(argv[0]);
            memset(argv[0], 0, room);
            strncpy(argv[0], "mt: worker two", room);
            void *p = hold(2000000);
            usleep(1200000);   /* the title is read at a rewrite (1 s) */
            free(p);
            exit(3);
        }
        prctl(PR_SET_NAME, "mt-victim", 0, 0, 0);
        hold(3000000);
        for (;;)
            usleep(50000);
    }
    /* Wait until the victim's profile holds its 3,000,000 B. */
    char path[4096], line[256];
    snprintf(path, sizeof path, argv[1], (int)kids[2]);
    for (int seen = 0; !seen; ) {
        FILE *f = fopen(path, "r");
        while (f && !seen && fgets(line, sizeof line, f))
            seen = strncmp(line, "mem_heap_B=", 11) == 0 && atol(line + 11) >= 3000000;
        if (f)
            fclose(f);
        if (!seen)
            usleep(50000);
    }
    kill(kids[2], SIGKILL);
    for (int i = 0; i < 3; i++) {
        int status;
        waitpid(kids[i], &status, 0);
    }
    return 0;
}
