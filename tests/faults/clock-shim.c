/*
 * A wall clock that a test can step, for a redis-server of the fault tests (LD_PRELOAD).
 *
 * REDIS_TTL_CLOCK_FILE names a file of 8 bytes: a signed 64-bit offset in milliseconds (host byte
 * order), mapped shared, so a write to the file moves the clock at once. gettimeofday(), time() and
 * clock_gettime() of the real-time clocks answer the real time plus that offset; every other clock
 * (CLOCK_MONOTONIC: Redis' timers) is left alone. The real time is read with the raw system call,
 * never through the dynamic linker: libfaketime, which does the same through dlsym(), deadlocks
 * with the jemalloc that Debian's redis-server links (wolfcw/libfaketime#130).
 *
 * Built by tests/faults/clock.ts with the system's C compiler; used only by the tests.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int64_t *offset_ms = 0;
static int mapped = 0; /* 0: not tried yet, 1: mapped, -1: no file */

static int64_t offset(void) {
  if (__atomic_load_n(&mapped, __ATOMIC_ACQUIRE) == 0) {
    int state = -1;
    const char *path = getenv("REDIS_TTL_CLOCK_FILE");
    if (path != 0) {
      int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
      if (fd >= 0) {
        void *p = mmap(0, sizeof(int64_t), PROT_READ, MAP_SHARED, fd, 0);
        syscall(SYS_close, fd);
        if (p != MAP_FAILED) {
          offset_ms = (volatile int64_t *)p;
          state = 1;
        }
      }
    }
    __atomic_store_n(&mapped, state, __ATOMIC_RELEASE);
  }
  return mapped == 1 ? *offset_ms : 0;
}

static int realtime(clockid_t id) {
  return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  int r = (int)syscall(SYS_clock_gettime, id, ts);
  if (r == 0 && ts != 0 && realtime(id)) {
    int64_t ns = (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec + offset() * 1000000LL;
    ts->tv_sec = (time_t)(ns / 1000000000LL);
    ts->tv_nsec = (long)(ns % 1000000000LL);
  }
  return r;
}

int gettimeofday(struct timeval *tv, void *tz) {
  struct timespec ts;
  int r = clock_gettime(CLOCK_REALTIME, &ts);
  if (r == 0 && tv != 0) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  (void)tz;
  return r;
}

time_t time(time_t *out) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  if (out != 0) *out = ts.tv_sec;
  return ts.tv_sec;
}
