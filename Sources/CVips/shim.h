#ifndef PEERSHARE_CVIPS_SHIM_H
#define PEERSHARE_CVIPS_SHIM_H
/* Debian's libvips (libvips-dev): the daemon's thumbnails (Sources/Thumbnails). libvips'
   operations take their options as NULL-terminated variadic lists, which Swift cannot
   call: each call the project makes is wrapped here with its options fixed. */
#include <vips/vips.h>

/* Starts libvips once per process (`VIPS_INIT` is a macro). */
static inline int peershare_vips_init(void) { return VIPS_INIT("peershare"); }

static inline void peershare_vips_drop_message(
    const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

/* Silences libvips' warnings (about damaged files, on stderr: the daemon's log), keeping
   errors: what fails reaches the caller through vips_error_buffer() instead. */
static inline void peershare_vips_quiet(void) {
    g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO
        | G_LOG_LEVEL_DEBUG), peershare_vips_drop_message, NULL);
}

/* A thumbnail fitting a `side` x `side` box, shrunk on load where the format allows (JPEG
   DCT scaling, HEIC and WebP previews), turned upright by its EXIF orientation, never
   enlarged. */
static inline int peershare_vips_thumbnail(const char *path, VipsImage **out, int side) {
    return vips_thumbnail(path, out, side, "height", side, "size", VIPS_SIZE_DOWN, NULL);
}

/* JPEG bytes at `quality`, without metadata (`strip`: no EXIF, GPS or ICC profile, so a
   thumbnail reveals no more than its pixels). Free the buffer with g_free. */
static inline int peershare_vips_jpeg(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

/* What tests and the benchmark make their images with. */

/* JPEG bytes keeping metadata (an `orientation` set on the image is written as EXIF). */
static inline int peershare_vips_jpeg_keeping_metadata(VipsImage *in, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", 85, NULL);
}

static inline int peershare_vips_png(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, NULL);
}

static inline int peershare_vips_webp(VipsImage *in, void **buffer, size_t *length) {
    return vips_webpsave_buffer(in, buffer, length, NULL);
}

static inline int peershare_vips_tiff(VipsImage *in, void **buffer, size_t *length) {
    return vips_tiffsave_buffer(in, buffer, length, NULL);
}

static inline int peershare_vips_heif(VipsImage *in, void **buffer, size_t *length) {
    return vips_heifsave_buffer(in, buffer, length, NULL);
}

/* Gaussian noise around 128 with standard deviation `sigma`, one float band. */
static inline int peershare_vips_noise(VipsImage **out, int width, int height, double sigma) {
    return vips_gaussnoise(out, width, height, "sigma", sigma, "mean", 128.0, NULL);
}

static inline int peershare_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast_uchar(in, out, NULL);
}

static inline int peershare_vips_bandjoin3(VipsImage *a, VipsImage *b, VipsImage *c, VipsImage **out) {
    VipsImage *bands[3] = {a, b, c};
    return vips_bandjoin(bands, out, 3, NULL);
}

/* Decodes image bytes (their header at once, pixels on demand). */
static inline VipsImage *peershare_vips_decode(const void *buffer, size_t length) {
    return vips_image_new_from_buffer(buffer, length, "", NULL);
}

/* Drops a reference to a libvips object (`g_object_unref` takes a gpointer). */
static inline void peershare_vips_release(VipsImage *image) { g_object_unref(image); }

#endif
