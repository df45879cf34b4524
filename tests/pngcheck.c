/* tests/pngcheck.c: a small PNG probe for the chart tests. It decodes a PNG
 * with libpng (simplified API, composited to 8-bit RGB) and answers:
 *   pngcheck FILE size             -> "W H"
 *   pngcheck FILE at X Y           -> "RRGGBB"
 *   pngcheck FILE runs X Y0 Y1     -> one line per run of equal colour down
 *                                     column X: "FIRST LAST RRGGBB"
 *   pngcheck FILE row Y RRGGBB     -> the x ranges in row Y of that exact
 *                                     colour, "X0-X1 ..." (empty line if none)
 *   pngcheck FILE count RRGGBB     -> how many pixels have that colour
 *   pngcheck FILE dump X0 Y0 X1 Y1 -> the rectangle's pixels, one row a line,
 *                                     "RRGGBB RRGGBB ..." (inclusive bounds)
 * Exit status 0, or 1 with a message on stderr (unreadable file, bad args,
 * coordinates outside the image). */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static png_bytep px;
static unsigned W, H;

static unsigned long rgb(unsigned x, unsigned y)
{
    png_bytep p = px + ((size_t)y * W + x) * 3;
    return (unsigned long)p[0] << 16 | (unsigned long)p[1] << 8 | p[2];
}

static unsigned coord(const char *s, unsigned lim, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < 0 || (unsigned long)v >= lim) {
        fprintf(stderr, "pngcheck: %s %s outside 0..%u\n", what, s, lim - 1);
        exit(1);
    }
    return (unsigned)v;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pngcheck FILE size|at X Y|runs X Y0 Y1|row Y RRGGBB|count RRGGBB|dump X0 Y0 X1 Y1\n");
        return 1;
    }
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, argv[1])) {
        fprintf(stderr, "pngcheck: %s: %s\n", argv[1], img.message);
        return 1;
    }
    img.format = PNG_FORMAT_RGB;
    W = img.width;
    H = img.height;
    px = malloc(PNG_IMAGE_SIZE(img));
    png_color white = { 255, 255, 255 };
    if (!px || !png_image_finish_read(&img, &white, px, 0, NULL)) {
        fprintf(stderr, "pngcheck: %s: %s\n", argv[1], px ? img.message : "out of memory");
        return 1;
    }
    const char *cmd = argv[2];
    if (!strcmp(cmd, "size") && argc == 3) {
        printf("%u %u\n", W, H);
    } else if (!strcmp(cmd, "at") && argc == 5) {
        unsigned x = coord(argv[3], W, "x"), y = coord(argv[4], H, "y");
        printf("%06lX\n", rgb(x, y));
    } else if (!strcmp(cmd, "runs") && argc == 6) {
        unsigned x = coord(argv[3], W, "x");
        unsigned y0 = coord(argv[4], H, "y0"), y1 = coord(argv[5], H, "y1");
        unsigned start = y0;
        for (unsigned y = y0 + 1; y <= y1 + 1; y++)
            if (y > y1 || rgb(x, y) != rgb(x, start)) {
                printf("%u %u %06lX\n", start, y - 1, rgb(x, start));
                start = y;
            }
    } else if (!strcmp(cmd, "dump") && argc == 7) {
        unsigned x0 = coord(argv[3], W, "x0"), y0 = coord(argv[4], H, "y0");
        unsigned x1 = coord(argv[5], W, "x1"), y1 = coord(argv[6], H, "y1");
        for (unsigned y = y0; y <= y1; y++)
            for (unsigned x = x0; x <= x1; x++)
                printf("%06lX%c", rgb(x, y), x == x1 ? '\n' : ' ');
    } else if (!strcmp(cmd, "row") && argc == 5) {
        unsigned y = coord(argv[3], H, "y");
        unsigned long want = strtoul(argv[4], NULL, 16);
        const char *sep = "";
        for (unsigned x = 0; x < W; x++) {
            if (rgb(x, y) != want)
                continue;
            unsigned e = x;
            while (e + 1 < W && rgb(e + 1, y) == want)
                e++;
            printf("%s%u-%u", sep, x, e);
            sep = " ";
            x = e;
        }
        printf("\n");
    } else if (!strcmp(cmd, "count") && argc == 4) {
        unsigned long want = strtoul(argv[3], NULL, 16), n = 0;
        for (unsigned y = 0; y < H; y++)
            for (unsigned x = 0; x < W; x++)
                n += rgb(x, y) == want;
        printf("%lu\n", n);
    } else {
        fprintf(stderr, "pngcheck: bad arguments\n");
        return 1;
    }
    free(px);
    png_image_free(&img);
    return 0;
}
