#ifndef PEERSHARE_CLINUX_SHIM_H
#define PEERSHARE_CLINUX_SHIM_H

#include <stddef.h>

/// Linux calls that Swift's Glibc module leaves out (they are declared only under
/// _GNU_SOURCE, or in headers it does not include). Same prototypes as glibc's.

/// Writes out and waits for everything dirty on the filesystem holding `fd` (one sync for
/// many files: photo data arriving in bulk is made durable in groups). <unistd.h>
extern int syncfs(int fd);

/// Returns free memory at the top of the heap and in every arena to the system (after a
/// burst of connections, whose buffers and threads the allocator would otherwise keep).
/// <malloc.h>
extern int malloc_trim(size_t pad);

/// Names a thread (at most 15 bytes), as `ps -L`, `top -H` and debuggers show it. `thread`
/// is a `pthread_t`, which glibc defines as `unsigned long`. <pthread.h>
extern int pthread_setname_np(unsigned long thread, const char *name);

/// Starts writing back the dirty pages of a byte range of `fd` without waiting for them
/// (`flags` SYNC_FILE_RANGE_WRITE, 2): a large photo arriving is written to disk as it comes,
/// so that making it durable at the end does not find a gigabyte still in memory. Not a
/// durability guarantee on its own (no metadata, no disk cache flush). <fcntl.h>
extern int sync_file_range(int fd, long long offset, long long count, unsigned int flags);

/// `open` flag for writes that go from the caller's buffer to the disk, past the page cache
/// (buffer, offset and length aligned to the device's block size): large photo data
/// arriving from a peer. <fcntl.h> defines O_DIRECT only under _GNU_SOURCE; its value
/// differs between architectures.
#if defined(__aarch64__) || defined(__arm__)
static const int peershare_o_direct = 0200000;
#else
static const int peershare_o_direct = 040000;
#endif

#endif
