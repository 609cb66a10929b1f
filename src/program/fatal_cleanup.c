/* See fatal_cleanup.h. Slots are claimed with atomic operations, so the
 * explorer's threads and a signal arriving at any moment see either a
 * whole registration or none: a slot's data is written before its state
 * becomes USED, and a handler only acts on USED slots. */
#include "config.h"
#include "fatal_cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLOTS 8

enum { FREE, CLAIMED, USED };

static struct {
    _Atomic int state;
    int dirfd;
    char name[64];
} temps[SLOTS];

static struct {
    _Atomic int state;
    pid_t pgid;
} children[SLOTS];

#define TREE_SLOTS 4
#define TREE_DEPTH 16

static struct {
    _Atomic int state;
    char path[PATH_MAX];
} trees[TREE_SLOTS];

static int claim(_Atomic int *state)
{
    int expected = FREE;
    return atomic_compare_exchange_strong(state, &expected, CLAIMED);
}

int fatal_cleanup_add_temp(int dirfd, const char *name)
{
    if (strlen(name) >= sizeof temps[0].name)
        return -1;
    for (int i = 0; i < SLOTS; i++)
        if (claim(&temps[i].state)) {
            temps[i].dirfd = dirfd;
            strcpy(temps[i].name, name);
            atomic_store(&temps[i].state, USED);
            return i;
        }
    return -1;
}

void fatal_cleanup_forget_temp(int slot)
{
    if (slot >= 0 && slot < SLOTS)
        atomic_store(&temps[slot].state, FREE);
}

int fatal_cleanup_add_child(pid_t pgid)
{
    for (int i = 0; i < SLOTS; i++)
        if (claim(&children[i].state)) {
            children[i].pgid = pgid;
            atomic_store(&children[i].state, USED);
            return i;
        }
    return -1;
}

void fatal_cleanup_forget_child(int slot)
{
    if (slot >= 0 && slot < SLOTS)
        atomic_store(&children[slot].state, FREE);
}

int fatal_cleanup_add_tree(const char *path)
{
    if (strlen(path) >= sizeof trees[0].path)
        return -1;
    for (int i = 0; i < TREE_SLOTS; i++)
        if (claim(&trees[i].state)) {
            strcpy(trees[i].path, path);
            atomic_store(&trees[i].state, USED);
            return i;
        }
    return -1;
}

void fatal_cleanup_forget_tree(int slot)
{
    if (slot >= 0 && slot < TREE_SLOTS)
        atomic_store(&trees[slot].state, FREE);
}

/* struct linux_dirent64, as getdents64 fills it. */
struct dirent64_raw {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Empties the folder open as fd (which it closes): each entry unlinked;
 * one that is a folder (EISDIR, or EPERM as some systems say) emptied
 * and removed in turn. A symbolic link is removed, never followed:
 * unlinkat without AT_REMOVEDIR takes the link itself, and a folder is
 * opened with O_NOFOLLOW. */
static int empty_dir(int fd, int depth)
{
    int rc = 0;
    char buf[1024] __attribute__((aligned(8)));
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -1 : rc;
            break;
        }
        bool removed = false;
        for (long at = 0; at < n;) {
            struct dirent64_raw *d = (struct dirent64_raw *)(buf + at);
            at += d->reclen;
            if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
                continue;
            if (unlinkat(fd, d->name, 0) == 0) {
                removed = true;
                continue;
            }
            if ((errno != EISDIR && errno != EPERM) || depth >= TREE_DEPTH) {
                rc = -1;
                continue;
            }
            int sub = openat(fd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0 || empty_dir(sub, depth + 1) != 0 || unlinkat(fd, d->name, AT_REMOVEDIR) != 0)
                rc = -1;
            else
                removed = true;
        }
        /* Entries removed while listed: list again from the start, so
         * none is skipped by a shifted offset. Each pass that goes on
         * removed something, so this ends. */
        if (removed && lseek(fd, 0, SEEK_SET) != 0) {
            rc = -1;
            break;
        }
        if (!removed && rc != 0)
            break;
    }
    close(fd);
    return rc;
}

int fatal_cleanup_remove_tree(const char *path)
{
    int saved = errno;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc = fd < 0 ? (errno == ENOENT ? 0 : -1) : empty_dir(fd, 0);
    if (fd >= 0 && rmdir(path) != 0)
        rc = -1;
    errno = saved;
    return rc;
}

static sigset_t caught_set(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigaddset(&s, SIGQUIT);
    return s;
}

void fatal_cleanup_block(sigset_t *old)
{
    sigset_t s = caught_set();
    pthread_sigmask(SIG_BLOCK, &s, old);
}

void fatal_cleanup_unblock(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

void fatal_cleanup_run(void)
{
    int saved = errno;
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&temps[i].state) == USED)
            unlinkat(temps[i].dirfd, temps[i].name, 0);
    for (int i = 0; i < TREE_SLOTS; i++)
        if (atomic_load(&trees[i].state) == USED)
            fatal_cleanup_remove_tree(trees[i].path);
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&children[i].state) == USED) {
            pid_t g = children[i].pgid;
            kill(-g, SIGKILL);
            while (waitpid(g, NULL, 0) < 0 && errno == EINTR)
                ;
        }
    errno = saved;
}

void fatal_cleanup_claim(void)
{
    static atomic_flag dying = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&dying))
        for (;;)
            pause();
}

static void on_fatal_signal(int sig)
{
    fatal_cleanup_claim();
    fatal_cleanup_run();
    /* Die of the same signal, so the parent (a shell, make) sees why. */
    signal(sig, SIG_DFL);
    raise(sig);
}

void fatal_cleanup_install_handlers(void)
{
    static bool installed;
    if (installed)
        return;
    installed = true;
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue; /* nohup and friends: an ignored signal stays ignored */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigfillset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}
