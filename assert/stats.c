/* assert/stats.c: Fisher's exact test and the Mann-Whitney U test for the regression gate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assert/stats.h"

/* ---- Fisher ---- */

static double lchoose(long n, long k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

double trax_fisher_exact(long a, long b, long c, long d)
{
	long m = a + c, n = b + d, k = a + b, lo, hi;
	double *ld, mx = -INFINITY, obs, sum = 0, p = 0;

	if (a < 0 || b < 0 || c < 0 || d < 0)
		return -1;
	lo = k - n > 0 ? k - n : 0;
	hi = k < m ? k : m;
	if (hi <= lo)
		return 1;	/* a single table has these margins */
	ld = malloc((hi - lo + 1) * sizeof(*ld));
	if (!ld)
		return -1;
	/* log P(X = x) up to a constant, X hypergeometric: x passes among the k base runs */
	for (long x = lo; x <= hi; x++) {
		ld[x - lo] = lchoose(m, x) + lchoose(n, k - x);
		if (ld[x - lo] > mx)
			mx = ld[x - lo];
	}
	obs = exp(ld[a - lo] - mx) * (1 + 1e-7);
	for (long x = lo; x <= hi; x++) {
		double q = exp(ld[x - lo] - mx);

		sum += q;
		if (q <= obs)
			p += q;
	}
	free(ld);
	p /= sum;
	return p > 1 ? 1 : p;
}

/* ---- Mann-Whitney U ---- */

/* Arrangement cells the exact distribution may use (two layers of doubles: 64 MiB). */
#define EXACT_CELLS (1L << 22)

/*
 * Number of arrangements of m x's and n y's with U <= K, by the recurrence on the largest
 * element: f(i, j, k) = f(i - 1, j, k - j) (it is an x: it beats the j y's) + f(i, j - 1, k)
 * (it is a y). Rolled over i; sums of positive counts only. Returns -1 when too large.
 */
static double arrangements_le(int m, int n, long K)
{
	double *prev, *cur, total = 0;
	long w = K + 1;

	if (K < 0)
		return 0;
	if (m > n) {
		int t = m;

		m = n;
		n = t;
	}
	/* j runs over the smaller size */
	if ((long)(m + 1) * w > EXACT_CELLS)
		return -1;
	prev = calloc((size_t)(m + 1) * w, sizeof(double));
	cur = calloc((size_t)(m + 1) * w, sizeof(double));
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -1;
	}
	/* layer i = 0 (no element of the larger sample): one arrangement, U = 0 */
	for (int j = 0; j <= m; j++)
		prev[(long)j * w] = 1;
	for (int i = 1; i <= n; i++) {
		double *t;

		memset(cur, 0, (size_t)(m + 1) * w * sizeof(double));
		cur[0] = 1;	/* j = 0 */
		for (int j = 1; j <= m; j++) {
			double *cj = cur + (long)j * w, *cj1 = cur + (long)(j - 1) * w;
			const double *pj = prev + (long)j * w;

			for (long k = 0; k < w; k++)
				cj[k] = (k >= j ? pj[k - j] : 0) + cj1[k];
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	for (long k = 0; k < w; k++)
		total += prev[(long)m * w + k];
	free(prev);
	free(cur);
	return total;
}

static double choose(int n, int k)
{
	double c = 1;

	if (k > n - k)
		k = n - k;
	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

double trax_mwu_cdf(int m, int n, double u)
{
	long K, mn;
	double cnt;

	if (m < 1 || n < 1)
		return -1;
	mn = (long)m * n;
	if (u < 0)
		return 0;
	if (u >= mn)
		return 1;
	K = (long)floor(u);
	/* the distribution is symmetric about mn / 2: count the shorter tail */
	if (K > mn - K - 1) {
		cnt = arrangements_le(m, n, mn - K - 1);
		return cnt < 0 ? -1 : 1 - cnt / choose(m + n, m);
	}
	cnt = arrangements_le(m, n, K);
	return cnt < 0 ? -1 : cnt / choose(m + n, m);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int trax_mann_whitney(const double *x, int nx, const double *y, int ny,
		      enum trax_mwu_method method, struct trax_mwu *out)
{
	int n = nx + ny, exact;
	double *pool, u = 0, ties = 0, mu, var;

	memset(out, 0, sizeof(*out));
	if (nx < 1 || ny < 1)
		return -1;
	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny; j++)
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	pool = malloc(n * sizeof(*pool));
	if (!pool)
		return -1;
	memcpy(pool, x, nx * sizeof(*pool));
	memcpy(pool + nx, y, ny * sizeof(*pool));
	qsort(pool, n, sizeof(*pool), cmp_double);
	for (int i = 0; i < n;) {
		int j = i + 1;

		while (j < n && pool[j] == pool[i])
			j++;
		if (j - i > 1) {
			double t = j - i;

			ties += t * t * t - t;
			out->ties = 1;
		}
		i = j;
	}
	free(pool);
	out->u = u;
	mu = (double)nx * ny / 2;
	exact = method == TRAX_MWU_EXACT ||
		(method == TRAX_MWU_AUTO && !out->ties && nx < TRAX_MWU_EXACT_MAX &&
		 ny < TRAX_MWU_EXACT_MAX);
	if (exact) {
		double lo = u < (double)nx * ny - u ? u : (double)nx * ny - u, p;

		if (out->ties)
			return -1;
		p = trax_mwu_cdf(nx, ny, lo);
		if (p < 0)
			return -1;
		out->exact = 1;
		out->p = 2 * p > 1 ? 1 : 2 * p;
		return 0;
	}
	var = (double)nx * ny / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0) {
		out->z = 0;
		out->p = 1;	/* every value equal: no evidence of any shift */
		return 0;
	}
	{
		double d = u - mu, cc = d > 0 ? 0.5 : d < 0 ? -0.5 : 0;

		out->z = (d - cc) / sqrt(var);
	}
	out->p = erfc(fabs(out->z) / M_SQRT2);
	if (out->p > 1)
		out->p = 1;
	return 0;
}

double trax_median(const double *v, int n)
{
	double *s, m;

	if (n <= 0)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}
