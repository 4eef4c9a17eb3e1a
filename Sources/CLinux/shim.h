#ifndef PEERSHARE_CLINUX_SHIM_H
#define PEERSHARE_CLINUX_SHIM_H

/// Linux calls that Swift's Glibc module leaves out (they are declared only under
/// _GNU_SOURCE). Same prototypes as glibc's <unistd.h>.

/// Writes out and waits for everything dirty on the filesystem holding `fd` (one sync for
/// many files: photo data arriving in bulk is made durable in groups).
extern int syncfs(int fd);

#endif
