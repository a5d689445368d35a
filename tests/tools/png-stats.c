/* tests/tools/png-stats.c: decode a PNG with cairo and print its size and how much is drawn. */
#include <stdio.h>
#include <stdlib.h>

#include <cairo.h>

/*
 * usage: png-stats FILE.png
 * prints: WIDTH HEIGHT COLOURS NONWHITE_PERMILLE
 * COLOURS is the number of distinct RGB values (capped at 65536), NONWHITE_PERMILLE the share
 * of pixels that are not white, in thousandths. Exit status 2 when the file does not decode.
 */
int main(int argc, char **argv)
{
	cairo_surface_t *s;
	unsigned char *seen, *data;
	long colours = 0, nonwhite = 0;
	int w, h, stride;

	if (argc != 2) {
		fprintf(stderr, "usage: png-stats FILE.png\n");
		return 2;
	}
	s = cairo_image_surface_create_from_png(argv[1]);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "png-stats: %s: %s\n", argv[1],
			cairo_status_to_string(cairo_surface_status(s)));
		cairo_surface_destroy(s);
		return 2;
	}
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	stride = cairo_image_surface_get_stride(s);
	data = cairo_image_surface_get_data(s);
	seen = calloc(1 << 21, 1);	/* one bit per 24-bit colour */
	if (!seen) {
		cairo_surface_destroy(s);
		return 2;
	}
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			const unsigned char *q = data + (size_t)y * stride + (size_t)x * 4;
			unsigned int px = *(const unsigned int *)q & 0xffffff;

			if (!(seen[px >> 3] & (1 << (px & 7)))) {
				seen[px >> 3] |= 1 << (px & 7);
				if (colours < 65536)
					colours++;
			}
			if (px != 0xffffff)
				nonwhite++;
		}
	}
	printf("%d %d %ld %ld\n", w, h, colours,
	       w && h ? nonwhite * 1000 / ((long)w * h) : 0);
	free(seen);
	cairo_surface_destroy(s);
	return 0;
}
