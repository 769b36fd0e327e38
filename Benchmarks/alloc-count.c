/*
 * alloc-count: an LD_PRELOAD library that counts, in a file other processes
 * can read at any moment, every heap call of the process it is loaded into
 * and its read/pread/write calls per descriptor. Benchmarks/daemon-bench
 * loads it into the unmodified release daemon and reads the counters at the
 * start and the end of a window: allocations in the window divided by the
 * samples read in it (reads of in_accel_z_raw, or bytes read from
 * /dev/iio:deviceN divided by the scan size) is allocations per sample.
 *
 *   ALLOC_COUNT_FILE=/path LD_PRELOAD=alloc-count.so tiltscrolld ...
 *   od -An -v -w8 -t u8 /path      one counter per line, in the order of
 *                                  struct counters below
 *
 * Why a file mapped shared rather than a signal that prints: the daemon
 * blocks the signals it handles and waits in poll(2); a reader of the
 * mapping changes nothing in what the daemon does. The heap calls go to
 * glibc's own __libc_* entry points (exported for exactly this use), so
 * nothing here allocates or recurses. Reads and writes go through the same
 * system calls glibc makes: the counters cost a few instructions per call
 * and no system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_FDS 64

/* Every field is a uint64_t: `od -t u8` prints them in this order. */
struct counters {
	uint64_t version; /* 1 */
	uint64_t malloc_calls;
	uint64_t calloc_calls;
	uint64_t realloc_calls; /* realloc and reallocarray */
	uint64_t aligned_calls; /* posix_memalign, aligned_alloc, memalign, valloc, pvalloc */
	uint64_t free_calls; /* free of a non-null pointer */
	uint64_t bytes_requested;
	uint64_t reads[MAX_FDS]; /* read and pread calls per descriptor */
	uint64_t read_bytes[MAX_FDS]; /* bytes they returned */
	uint64_t writes[MAX_FDS]; /* write calls per descriptor */
	uint64_t write_bytes[MAX_FDS];
};

_Static_assert(sizeof(struct counters) == (7 + 4 * MAX_FDS) * sizeof(uint64_t),
	       "counters must be a plain array of uint64_t for od");

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);
extern void *__libc_pvalloc(size_t);
extern void __libc_free(void *);
extern ssize_t __read(int, void *, size_t);
extern ssize_t __pread64(int, void *, size_t, off_t);
extern ssize_t __write(int, const void *, size_t);

/* Counts made before the constructor maps the file (the dynamic loader and
 * earlier constructors allocate too) are carried over into the mapping. */
static struct counters early = { .version = 1 };
static struct counters *c = &early;

#define COUNT(field, n) __atomic_add_fetch(&c->field, (n), __ATOMIC_RELAXED)

__attribute__((constructor)) static void alloc_count_init(void)
{
	const char *path = getenv("ALLOC_COUNT_FILE");
	if (!path || !*path)
		return;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (ftruncate(fd, sizeof(struct counters)) == 0) {
		void *map = mmap(NULL, sizeof(struct counters), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (map != MAP_FAILED) {
			memcpy(map, &early, sizeof early);
			c = map;
		}
	}
	close(fd);
}

void *malloc(size_t size)
{
	COUNT(malloc_calls, 1);
	COUNT(bytes_requested, size);
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	COUNT(calloc_calls, 1);
	COUNT(bytes_requested, n * size);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	COUNT(realloc_calls, 1);
	COUNT(bytes_requested, size);
	return __libc_realloc(p, size);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(n, size, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, bytes);
}

void *memalign(size_t alignment, size_t size)
{
	COUNT(aligned_calls, 1);
	COUNT(bytes_requested, size);
	return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size)
{
	return memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
	if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0)
		return EINVAL;
	void *p = memalign(alignment, size);
	if (!p && size)
		return ENOMEM;
	*out = p;
	return 0;
}

void *valloc(size_t size)
{
	COUNT(aligned_calls, 1);
	COUNT(bytes_requested, size);
	return __libc_valloc(size);
}

void *pvalloc(size_t size)
{
	COUNT(aligned_calls, 1);
	COUNT(bytes_requested, size);
	return __libc_pvalloc(size);
}

void free(void *p)
{
	if (p)
		COUNT(free_calls, 1);
	__libc_free(p);
}

static void count_io(uint64_t *calls, uint64_t *bytes, int fd, ssize_t n)
{
	if (fd < 0 || fd >= MAX_FDS)
		return;
	__atomic_add_fetch(&calls[fd], 1, __ATOMIC_RELAXED);
	if (n > 0)
		__atomic_add_fetch(&bytes[fd], (uint64_t)n, __ATOMIC_RELAXED);
}

ssize_t read(int fd, void *buf, size_t count)
{
	ssize_t n = __read(fd, buf, count);
	int saved = errno;
	count_io(c->reads, c->read_bytes, fd, n);
	errno = saved;
	return n;
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	ssize_t n = __pread64(fd, buf, count, offset);
	int saved = errno;
	count_io(c->reads, c->read_bytes, fd, n);
	errno = saved;
	return n;
}

ssize_t pread64(int fd, void *buf, size_t count, off_t offset) __attribute__((alias("pread")));

ssize_t write(int fd, const void *buf, size_t count)
{
	ssize_t n = __write(fd, buf, count);
	int saved = errno;
	count_io(c->writes, c->write_bytes, fd, n);
	errno = saved;
	return n;
}
