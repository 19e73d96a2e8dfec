/* bench/rss_run.c - runs one command and reports its peak resident memory
 * and wall time, for the CLI memory benchmark (bench/cli_rss.py).
 *
 *   tyjson_bench_rss_run [--pipe FILE] [--out FILE] -- COMMAND [ARG...]
 *
 * Without --pipe the command reads whatever its arguments name (a file) and
 * its standard input is /dev/null. With --pipe FILE its standard input is
 * a pipe that this process fills with FILE's bytes, so the command sees a
 * stream it cannot seek or map; when the command exits before taking all of
 * it (`get` stops reading once it has its value), feeding stops there.
 * The command's standard output goes to --out FILE (default /dev/null), its
 * standard error is kept.
 *
 * Prints one line on stdout:
 *   status=S rss_kib=K wall_s=T user_s=U sys_s=Y fed_bytes=B
 * S is the exit status (128+N for a signal N), K the child's peak RSS from
 * wait4 (ru_maxrss), T the wall time from fork to the child's exit, U and Y
 * its user and system CPU time (wait4: on a busy machine closer to the cost
 * than the wall time), B the bytes written into the pipe (0 without --pipe). The exit status is 0 when
 * the command ran (whatever its status), 2 on a usage or system error.
 * The feeding buffer is allocated after the fork, so that the child's RSS
 * is the command's alone. POSIX (Linux, the BSDs, macOS). */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FEED_CHUNK (256u * 1024u)

static int fail(const char *what) {
    fprintf(stderr, "tyjson_bench_rss_run: %s: %s\n", what, strerror(errno));
    return 2;
}

static int usage(void) {
    fprintf(stderr, "usage: tyjson_bench_rss_run [--pipe FILE] [--out FILE] -- COMMAND [ARG...]\n");
    return 2;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes all of FILE into fd until the end or until the reader has gone
 * (EPIPE); returns the bytes written, or -1 on a read error. */
static long long feed(int in, int fd) {
    char *buf = malloc(FEED_CHUNK);
    long long total = 0;
    if (!buf) return -1;
    for (;;) {
        ssize_t n = read(in, buf, FEED_CHUNK), off = 0;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            total = -1;
            break;
        }
        if (n == 0) break;
        while (off < n) {
            ssize_t w = write(fd, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) goto done; /* EPIPE: the command stopped reading */
            off += w;
            total += w;
        }
    }
done:
    free(buf);
    return total;
}

int main(int argc, char **argv) {
    const char *pipe_file = NULL, *out_file = "/dev/null";
    int i, in = -1, fds[2] = {-1, -1}, status;
    long long fed = 0;
    struct rusage ru;
    double t0, t1;
    pid_t pid;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--pipe") == 0 && i + 1 < argc) pipe_file = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_file = argv[++i];
        else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else return usage();
    }
    if (i >= argc) return usage();

    if (pipe_file) {
        in = open(pipe_file, O_RDONLY);
        if (in < 0) return fail(pipe_file);
        if (pipe(fds) != 0) return fail("pipe");
    }
    signal(SIGPIPE, SIG_IGN); /* a write to a closed pipe is EPIPE, not death */
    fflush(NULL);
    t0 = now_s();
    pid = fork();
    if (pid < 0) return fail("fork");
    if (pid == 0) {
        int o = open(out_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int stdin_fd = pipe_file ? fds[0] : open("/dev/null", O_RDONLY);
        if (o < 0 || stdin_fd < 0 || dup2(stdin_fd, 0) < 0 || dup2(o, 1) < 0) _exit(127);
        if (pipe_file) {
            close(fds[0]);
            close(fds[1]);
            close(in);
        }
        close(o);
        signal(SIGPIPE, SIG_DFL);
        execvp(argv[i], argv + i);
        fprintf(stderr, "tyjson_bench_rss_run: %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    if (pipe_file) {
        close(fds[0]);
        fed = feed(in, fds[1]);
        close(fds[1]);
        close(in);
        if (fed < 0) return fail(pipe_file);
    }
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) return fail("wait4");
    }
    t1 = now_s();
    printf("status=%d rss_kib=%ld wall_s=%.6f user_s=%.6f sys_s=%.6f fed_bytes=%lld\n",
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), (long)ru.ru_maxrss, t1 - t0,
           (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6,
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6, fed);
    return 0;
}
