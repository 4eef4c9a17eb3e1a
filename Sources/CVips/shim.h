#ifndef PEERSHARE_CVIPS_SHIM_H
#define PEERSHARE_CVIPS_SHIM_H
/* Debian's libvips (libvips-dev): the daemon's thumbnails (Sources/Thumbnails). libvips'
   operations take their options as NULL-terminated variadic lists, which Swift cannot
   call: each call the project makes is wrapped here with its options fixed. */
#include <vips/vips.h>
#include <gmodule.h>

/* Loads one libvips plugin module (a `vips-modules-X.Y/NAME.so` file) for good, as vips_init
   loads every module of that directory; 0 once its operations are registered, -1 if it
   could not be opened. */
static inline int peershare_vips_load_module(const char *path) {
    GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
    if (!module) return -1;
    g_module_make_resident(module);
    return 0;
}

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

/* A JPEG's thumbnail decoded at the smallest DCT scale (1/2, 1/4 or 1/8) that keeps its
   longest side at least `side`, resized to fit `side` x `side`, then turned upright by its
   EXIF orientation. vips_thumbnail leaves a factor of two for its resize (a 4000-pixel photo
   is decoded at 1/4 for a 320-pixel preview), which costs a third more than the entropy
   decoding every scale pays; an 8x8 block average followed by the resize is as good at
   this size. Returns 1, touching nothing, for a JPEG this path leaves to vips_thumbnail
   (an ICC profile to convert from, CMYK, more than 8 bits), -1 on error, 0 with `*out` set. */
static inline int peershare_vips_jpeg_thumbnail(const char *path, VipsImage **out, int side) {
    VipsImage *header = NULL;
    if (vips_jpegload(path, &header, NULL)) return -1;
    int width = header->Xsize, height = header->Ysize, longest = VIPS_MAX(width, height);
    int plain = header->BandFmt == VIPS_FORMAT_UCHAR
        && ((header->Bands == 3 && header->Type == VIPS_INTERPRETATION_sRGB)
            || (header->Bands == 1 && header->Type == VIPS_INTERPRETATION_B_W))
        && !vips_image_get_typeof(header, VIPS_META_ICC_NAME);
    g_object_unref(header);
    if (!plain) return 1;
    int shrink = 1;
    while (shrink < 8 && longest / (shrink * 2) >= side) shrink *= 2;
    VipsImage *loaded = NULL, *resized = NULL, *small = NULL;
    if (vips_jpegload(path, &loaded, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) return -1;
    if (longest > side) {
        /* The size vips_thumbnail gives, from the full size: DCT scaling rounds up, so
           scaling the loaded image by one factor could miss it by a pixel. */
        double targetWidth = VIPS_MAX(1, (int)(width * (double)side / longest + 0.5));
        double targetHeight = VIPS_MAX(1, (int)(height * (double)side / longest + 0.5));
        int failed = vips_resize(loaded, &resized, targetWidth / loaded->Xsize, "vscale",
            targetHeight / loaded->Ysize, NULL);
        g_object_unref(loaded);
        if (failed) return -1;
    } else {
        resized = loaded;
    }
    /* Decoded here, whole and small: the rotation reads it out of order, which the
       sequential load cannot serve. A damaged file fails here. */
    small = vips_image_copy_memory(resized);
    g_object_unref(resized);
    if (!small) return -1;
    int failed = vips_autorot(small, out, NULL);
    g_object_unref(small);
    return failed ? -1 : 0;
}

/* JPEG bytes at `quality`, without metadata (`strip`: no EXIF, GPS or ICC profile, so a
   thumbnail reveals no more than its pixels). Free the buffer with g_free. */
static inline int peershare_vips_jpeg(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

/* What tests and the benchmark make their images with. */

/* The benchmark's floor for JPEG thumbnails: decodes the file at 1/8 scale (the least any
   libjpeg decoding does: every coefficient is still entropy-decoded) and nothing else.
   The mean pixel value, so that the decoding cannot be skipped; -1 on error. */
static inline double peershare_vips_jpeg_decode_eighth(const char *path) {
    VipsImage *image = NULL;
    if (vips_jpegload(path, &image, "shrink", 8, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) return -1;
    double mean = -1;
    if (vips_avg(image, &mean, NULL)) mean = -1;
    g_object_unref(image);
    return mean;
}

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
