/* assert/stats.h: the regression gate's statistics: Fisher's exact test, Mann-Whitney U. */
#ifndef TRAX_STATS_H
#define TRAX_STATS_H

/*
 * Two-sided Fisher's exact test on the 2x2 table
 *
 *		 pass  fail
 *	base	  a     b
 *	new	  c     d
 *
 * conditioned on its margins (hypergeometric): the sum of the probabilities of every table with
 * the same margins that is no more likely than the observed one (R's fisher.test: a table
 * counts as "no more likely" when its probability is at most the observed one times
 * 1 + 1e-7). Returns the p-value in [0, 1], or -1 when a count is negative.
 */
double trax_fisher_exact(long a, long b, long c, long d);

enum trax_mwu_method {
	TRAX_MWU_AUTO,		/* exact without ties and both samples < TRAX_MWU_EXACT_MAX,
				 * else the normal approximation */
	TRAX_MWU_EXACT,		/* the exact distribution (no ties allowed) */
	TRAX_MWU_NORMAL,	/* the normal approximation */
};

/* AUTO uses the exact distribution when both samples are smaller than this (R's rule). */
#define TRAX_MWU_EXACT_MAX 50

struct trax_mwu {
	double u;		/* U of x: pairs (x_i, y_j) with x_i > y_j, a tie counting
				 * 1/2 (R's W, SciPy's U1) */
	double p;		/* two-sided p-value */
	int exact;		/* 1: from the exact distribution; 0: normal approximation */
	int ties;		/* the pooled samples hold equal values (mid-ranks were used) */
	double z;		/* normal approximation: (U - nx ny / 2 - c) / sigma with the tie-
				 * corrected sigma and the continuity correction c = 0.5 sign(U -
				 * nx ny / 2); 0 when exact */
};

/*
 * Two-sided Mann-Whitney U (Wilcoxon rank-sum) test of x[0..nx) against y[0..ny) (neither
 * array is modified; values must not be NaN). The exact p-value is
 * min(1, 2 P(U <= min(u, nx ny - u))) under the null distribution of U (every arrangement of
 * the pooled sample equally likely). The normal approximation uses mid-ranks, the variance
 * nx ny / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1))) over tie groups of size t (n = nx + ny),
 * and the continuity correction: R's wilcox.test(exact = FALSE, correct = TRUE) and SciPy's
 * mannwhitneyu(method = "asymptotic", use_continuity = True). When every value is equal the
 * variance is 0 and p is 1. Returns 0 with *out filled, or -1 when nx or ny is below 1 or
 * EXACT is asked for samples with ties.
 */
int trax_mann_whitney(const double *x, int nx, const double *y, int ny,
		      enum trax_mwu_method method, struct trax_mwu *out);

/*
 * P(U <= u) for the Mann-Whitney U of samples of sizes m and n without ties (the number of
 * arrangements with at most u pairs x > y, over (m + n choose m)). Returns -1 when m or n is
 * below 1.
 */
double trax_mwu_cdf(int m, int n, double u);

/* The median of v[0..n) (mean of the two middle values for an even n; v is not modified;
 * NaN for n = 0). */
double trax_median(const double *v, int n);

#endif
