/* follow_watch.c: file versions, process liveness and a directory's
 * candidate profiles (follow_watch.h), for the live view and the
 * overview. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "read/follow_watch.h"

void vis_file_sig_of_stat(vis_file_sig *s, const struct stat *st)
{
    memset(s, 0, sizeof *s);
    s->exists = 1;
    s->dev = st->st_dev;
    s->ino = st->st_ino;
    s->size = st->st_size;
    s->mtime = st->st_mtim;
}

void vis_file_sig_of(const char *path, vis_file_sig *s)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        memset(s, 0, sizeof *s);
    else
        vis_file_sig_of_stat(s, &st);
}

int vis_file_sig_eq(const vis_file_sig *a, const vis_file_sig *b)
{
    if (a->exists != b->exists)
        return 0;
    return !a->exists || (a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
                          a->mtime.tv_sec == b->mtime.tv_sec &&
                          a->mtime.tv_nsec == b->mtime.tv_nsec);
}

int vis_time_before(struct timespec a, struct timespec b)
{
    return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec < b.tv_nsec);
}

int vis_pid_gone(long long pid)
{
    return pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int vis_dir_names(const char *dir, char ***names, size_t *n, char *err, size_t errsz)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errsz, "%s: cannot open: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || (len > 8 && !strcmp(e->d_name + len - 8, ".memtime")))
            continue;
        char **a = realloc(*names, (*n + 1) * sizeof *a);
        char *name = a ? strdup(e->d_name) : NULL;
        if (a)
            *names = a;
        if (!name) {
            rc = -1;
            break;
        }
        (*names)[(*n)++] = name;
    }
    closedir(d);
    if (rc != 0) {
        for (size_t i = 0; i < *n; i++)
            free((*names)[i]);
        free(*names);
        *names = NULL;
        *n = 0;
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (*n > 1)   /* (qsort of NULL, 0 is undefined) */
        qsort(*names, *n, sizeof **names, cmp_str);
    return 0;
}
