/* search.c - see search.h */
#include "search/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/outcome.h"

/* A strategy that proposes only known points this many rounds in a row
 * has converged. */
#define IDLE_ROUNDS 200

void search_result_release(struct search_result *r)
{
	free(r->best);
	free(r->best_flags);
	memset(r, 0, sizeof(*r));
}

int search_evaluate(struct evalcache *ec, const struct space *sp, const struct evaluator *ev,
		    const unsigned char *pts, size_t n, double *obj, struct eval_result *res,
		    size_t *measured, struct strbuf *err)
{
	char **flags = xcalloc(n ? n : 1, sizeof(char *));
	struct eval_result *r = xcalloc(n ? n : 1, sizeof(*r));
	char **todo = xcalloc(n ? n : 1, sizeof(char *));
	size_t *where = xcalloc(n ? n : 1, sizeof(size_t));
	size_t ntodo = 0;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		flags[i] = space_render(sp, pts + i * sp->ndims);
		if (!*flags[i]) {
			eval_result_baseline(&r[i]);
			continue;
		}
		if (evalcache_get(ec, flags[i], &r[i]))
			continue;
		/* the same new flag set twice in one batch is measured once */
		size_t k = 0;
		while (k < ntodo && strcmp(todo[k], flags[i]))
			k++;
		if (k == ntodo)
			todo[ntodo++] = flags[i];
		where[i] = k + 1;
	}
	if (measured)
		*measured = ntodo;
	struct eval_result *fresh = xcalloc(ntodo ? ntodo : 1, sizeof(*fresh));
	if (ntodo && ev->evaluate(ev->ctx, todo, ntodo, fresh, err)) {
		rc = -1;
	} else {
		for (size_t k = 0; k < ntodo; k++)
			evalcache_put(ec, todo[k], &fresh[k]);
		/* any write of the search that failed so far, e.g. a probe's */
		rc = evalcache_check(ec, err);
		for (size_t i = 0; i < n && !rc; i++)
			if (where[i] && !evalcache_get(ec, flags[i], &r[i])) {
				sb_addf(err, "%s: cannot read back the search results just stored (check the file and its filesystem)",
					ec->path);
				rc = -1;
			}
	}
	for (size_t i = 0; i < n && !rc; i++) {
		obj[i] = r[i].obj;
		if (res)
			res[i] = r[i];
		else
			eval_result_release(&r[i]);
	}
	if (rc)
		for (size_t i = 0; i < n; i++)
			eval_result_release(&r[i]);
	for (size_t k = 0; k < ntodo; k++)
		eval_result_release(&fresh[k]);
	for (size_t i = 0; i < n; i++)
		free(flags[i]);
	free(fresh);
	free(flags);
	free(r);
	free(todo);
	free(where);
	return rc;
}

int known_bad_add(struct known_bad *kb, const char *flags, const char *why)
{
	if (sl_find(&kb->flags, flags) >= 0)
		return 0;
	sl_push(&kb->flags, flags);
	sl_push(&kb->why, why ? why : "");
	return 1;
}

void known_bad_release(struct known_bad *kb)
{
	sl_release(&kb->flags);
	sl_release(&kb->why);
}

/* The dimension whose value in pt is word (not at the start state), or -1. */
static ssize_t dim_showing(const struct space *sp, const unsigned char *pt, const char *word)
{
	for (size_t d = 0; d < sp->ndims; d++)
		if (!space_is_default(sp, pt, d) && !strcmp(sp->dims[d].vals[pt[d]], word))
			return (ssize_t)d;
	return -1;
}

size_t known_bad_mask(const struct known_bad *kb, const struct space *sp, unsigned char *pt)
{
	size_t reset = 0;
	for (size_t e = 0; kb && e < kb->flags.n; e++) {
		struct strlist w = {0};
		sl_split_ws(&w, kb->flags.v[e]);
		if (w.n == 1) {
			/* as space_drop: the whole dimension that knows the word */
			for (size_t d = 0; d < sp->ndims; d++) {
				const struct dim *dm = &sp->dims[d];
				int hit = dm->kind != DIM_LEVEL && !strcmp(dm->name, w.v[0]);
				for (unsigned v = 0; v < dm->nvals && !hit && dm->kind != DIM_LEVEL; v++)
					hit = *dm->vals[v] && !strcmp(dm->vals[v], w.v[0]);
				if (hit && !space_is_default(sp, pt, d)) {
					point_reset_dim(sp, pt, d);
					reset++;
				}
			}
		} else if (w.n > 1) {
			ssize_t last = -1;
			size_t k = 0;
			while (k < w.n && (last = dim_showing(sp, pt, w.v[k])) >= 0)
				k++;
			if (k == w.n && sp->dims[last].kind != DIM_LEVEL) {
				point_reset_dim(sp, pt, (size_t)last);
				reset++;
			}
		}
		sl_release(&w);
	}
	return reset;
}

void search_make_id(const char *context, const char *strategy, uint64_t seed,
		    const struct space *sp, char out[17])
{
	struct strbuf sb = {0};
	sb_addf(&sb, "%s %s %llu", context, strategy, (unsigned long long)seed);
	for (size_t d = 0; d < sp->ndims; d++)
		for (unsigned v = 0; v < sp->dims[d].nvals; v++)
			sb_addf(&sb, " %s", sp->dims[d].vals[v]);
	char h[65];
	sha256_hex(sb.buf, sb.len, h);
	snprintf(out, 17, "%.16s", h);
	sb_release(&sb);
}

void search_prepare_space(struct evalcache *ec, const char *id, struct space *sp,
			  const struct known_bad *kb)
{
	struct strlist drops = {0};
	int recorded = evalcache_drops_get(ec, id, &drops);
	for (size_t e = 0; e < kb->flags.n; e++) {
		const char *f = kb->flags.v[e];
		if (strchr(f, ' ') || (recorded && sl_find(&drops, f) < 0))
			continue;
		char *why = xasprintf("the compiler objects: %s", kb->why.v[e]);
		if (space_drop(sp, f, why) && !recorded)
			sl_push(&drops, f);
		free(why);
	}
	if (!recorded)
		evalcache_drops_put(ec, id, &drops);
	sl_release(&drops);
}

struct run_state {
	struct evalcache *ec;
	const struct space *sp;
	const struct search_params *p;
	struct search_result *out;
	struct pointset met;  /* points proposed in this search, with their objective */
	struct pointset seen; /* points evaluated (a masked proposal: without the flag) */
	char **trace;        /* an earlier session's trace, replayed */
	double *trace_obj;
	size_t ntrace;
};

static int budget_left(const struct run_state *s, size_t *room)
{
	const struct search_params *p = s->p;
	if (p->stop && *p->stop) {
		s->out->stopped = 1;
		return 0;
	}
	if (p->seconds > 0 && s->out->elapsed >= p->seconds)
		return 0;
	*room = p->batch ? p->batch : 1;
	if (p->budget) {
		if (s->out->evals >= p->budget)
			return 0;
		if (p->budget - s->out->evals < *room)
			*room = p->budget - s->out->evals;
	}
	return 1;
}

static void note(struct run_state *s, const unsigned char *pt, const char *flags,
		 const struct eval_result *r, int cached)
{
	struct search_result *o = s->out;
	if (r->obj < o->best_obj) {
		memcpy(o->best, pt, s->sp->ndims);
		o->best_obj = r->obj;
		free(o->best_flags);
		o->best_flags = xstrdup(flags);
	}
	if (*flags && pointset_put(&s->seen, pt, r->obj)) {
		o->evals++;
		if (o->evals <= s->ntrace && !strcmp(s->trace[o->evals - 1], flags))
			o->resumed++;
		evalcache_trace_put(s->ec, s->p->id, o->evals, flags, r->obj);
	}
	if (s->p->progress)
		s->p->progress(s->p->user, o->evals, flags, r, cached, o->best_obj);
}

static void save(struct run_state *s, const char *state)
{
	struct search_row row = {
		.strategy = (char *)s->p->strategy->name, .seed = s->p->seed,
		.evals = s->out->evals, .elapsed = s->out->elapsed,
		.best_flags = s->out->best_flags, .best_obj = s->out->best_obj, .state = (char *)state,
	};
	evalcache_search_save(s->ec, s->p->id, &row);
}

/* One round: the new points of the proposal are evaluated (cache first),
 * known ones are answered from `met`.  Returns the number of evaluations
 * it added (a masked proposal may add none), or -1 when the evaluator
 * failed. */
static int round_trip(struct run_state *s, const struct evaluator *ev, void *st,
		      unsigned char *pts, size_t n, struct strbuf *err)
{
	size_t nd = s->sp->ndims, evals = s->out->evals;
	double *obj = xcalloc(n, sizeof(double));
	unsigned char *fresh = xcalloc(n, nd ? nd : 1);
	size_t nfresh = 0;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *pt = pts + i * nd;
		int dup = pointset_get(&s->met, pt) != NULL;
		for (size_t k = 0; k < nfresh && !dup; k++)
			dup = !memcmp(fresh + k * nd, pt, nd);
		if (!dup)
			memcpy(fresh + nfresh++ * nd, pt, nd);
	}
	/* what is evaluated: the proposal without the flags known bad, unless
	 * the proposal itself was measured before they were known */
	unsigned char *eff = xcalloc(nfresh ? nfresh : 1, nd ? nd : 1);
	memcpy(eff, fresh, nfresh * nd);
	for (size_t k = 0; k < nfresh; k++) {
		if (!known_bad_mask(s->p->bad, s->sp, eff + k * nd))
			continue;
		char *raw = space_render(s->sp, fresh + k * nd);
		struct eval_result known;
		if (evalcache_get(s->ec, raw, &known)) {
			memcpy(eff + k * nd, fresh + k * nd, nd);
			eval_result_release(&known);
		}
		free(raw);
	}
	struct eval_result *res = xcalloc(nfresh ? nfresh : 1, sizeof(*res));
	double *fobj = xcalloc(nfresh ? nfresh : 1, sizeof(double));
	size_t measured = 0;
	double t0 = now_seconds();
	int rc = search_evaluate(s->ec, s->sp, ev, eff, nfresh, fobj, res, &measured, err);
	if (measured)
		s->out->elapsed += now_seconds() - t0;
	if (!rc) {
		s->out->measured += measured;
		for (size_t k = 0; k < nfresh; k++) {
			char *flags = space_render(s->sp, eff + k * nd);
			pointset_put(&s->met, fresh + k * nd, fobj[k]);
			note(s, eff + k * nd, flags, &res[k], 0);
			free(flags);
		}
		for (size_t i = 0; i < n; i++)
			obj[i] = *pointset_get(&s->met, pts + i * nd);
		s->p->strategy->observe(st, pts, obj, n);
		save(s, "running");
	}
	for (size_t k = 0; k < nfresh; k++)
		eval_result_release(&res[k]);
	free(res);
	free(fobj);
	free(eff);
	free(fresh);
	free(obj);
	return rc ? -1 : (int)(s->out->evals - evals);
}

int search_run(struct evalcache *ec, const struct space *sp, const struct search_params *p,
	       const struct evaluator *ev, struct search_result *out, struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	/* the baseline is always a valid answer: a flag set must beat it */
	out->best = xcalloc(sp->ndims ? sp->ndims : 1, 1);
	space_start(sp, out->best);
	out->best_obj = 1.0;
	out->best_flags = xstrdup("");
	struct run_state s = {.ec = ec, .sp = sp, .p = p, .out = out};
	pointset_init(&s.met, sp->ndims);
	pointset_init(&s.seen, sp->ndims);
	struct search_row prior;
	if (evalcache_search_load(ec, p->id, &prior)) {
		out->elapsed = prior.elapsed;
		search_row_release(&prior);
	}
	evalcache_trace_get(ec, p->id, &s.trace, &s.trace_obj, &s.ntrace);
	size_t batch = p->batch ? p->batch : 1;
	unsigned char *pts = xcalloc(batch, sp->ndims ? sp->ndims : 1);
	void *st = p->strategy->init(sp, p->seed);
	int rc = 0, idle = 0;
	size_t room;
	while (budget_left(&s, &room)) {
		size_t n = p->strategy->propose(st, pts, room);
		if (!n) {
			out->finished = 1;
			break;
		}
		int fresh = round_trip(&s, ev, st, pts, n, err);
		if (fresh >= 0 && evalcache_check(ec, err)) {
			rc = -1;
			break;
		}
		if (fresh < 0) {
			rc = p->stop && *p->stop ? 0 : -1;
			out->stopped = p->stop && *p->stop;
			break;
		}
		idle = fresh ? 0 : idle + 1;
		if (idle >= IDLE_ROUNDS) {
			out->finished = 1;
			break;
		}
	}
	save(&s, out->finished ? "done" : out->stopped ? "stopped" : "budget spent");
	if (!rc && evalcache_check(ec, err))
		rc = -1;
	p->strategy->release(st);
	free(pts);
	pointset_release(&s.met);
	pointset_release(&s.seen);
	for (size_t i = 0; i < s.ntrace; i++)
		free(s.trace[i]);
	free(s.trace);
	free(s.trace_obj);
	return rc;
}

static void unsafe_flag_release(struct unsafe_flag *u);

struct unsafe_walk {
	struct unsafe_flag *u;
	size_t n;
	int pass; /* 0: collect broken, 1: count good, 2: find unexplained breaks */
};

static struct unsafe_flag *find_flag(struct unsafe_walk *w, const char *flag)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->u[i].flag, flag))
			return &w->u[i];
	return NULL;
}

static void unsafe_visit(void *user, const char *flags, const struct eval_result *r)
{
	struct unsafe_walk *w = user;
	int broken = r->status != OUTCOME_OK;
	struct strlist words = {0};
	sl_split_ws(&words, flags);
	for (size_t i = 0; i < words.n; i++) {
		struct unsafe_flag *u = find_flag(w, words.v[i]);
		if (w->pass == 0 && broken) {
			if (!u) {
				w->u = xrealloc(w->u, (w->n + 1) * sizeof(*w->u));
				u = &w->u[w->n++];
				memset(u, 0, sizeof(*u));
				u->flag = xstrdup(words.v[i]);
				u->evidence = xasprintf("%s: %s", flags, r->detail);
			}
			u->broken++;
			if (words.n == 1 && !u->alone) {
				u->alone = 1;
				free(u->evidence);
				u->evidence = xasprintf("%s: %s", flags, r->detail);
			}
		} else if (w->pass == 1 && !broken && u) {
			u->ok++;
		}
	}
	/* a break no never-good flag explains: every flag of it is a suspect */
	int explained = 0;
	for (size_t i = 0; w->pass == 2 && broken && i < words.n; i++)
		explained |= !find_flag(w, words.v[i])->ok;
	for (size_t i = 0; w->pass == 2 && broken && !explained && i < words.n; i++)
		find_flag(w, words.v[i])->suspect = 1;
	sl_release(&words);
}

static int by_guilt(const void *a, const void *b)
{
	const struct unsafe_flag *x = a, *y = b;
	if (x->alone != y->alone)
		return y->alone - x->alone;
	double fx = (double)x->broken / (double)(x->broken + x->ok);
	double fy = (double)y->broken / (double)(y->broken + y->ok);
	if (fx != fy)
		return fx > fy ? -1 : 1;
	return strcmp(x->flag, y->flag);
}

struct unsafe_flag *search_unsafe_flags(struct evalcache *ec, size_t *n)
{
	struct unsafe_walk w = {0};
	evalcache_each(ec, unsafe_visit, &w);
	w.pass = 1;
	evalcache_each(ec, unsafe_visit, &w);
	w.pass = 2;
	evalcache_each(ec, unsafe_visit, &w);
	/* a flag that also built good programs, seen broken only next to a
	 * flag that never did, is not blamed */
	size_t keep = 0;
	for (size_t i = 0; i < w.n; i++) {
		if (!w.u[i].ok || w.u[i].suspect)
			w.u[keep++] = w.u[i];
		else
			unsafe_flag_release(&w.u[i]);
	}
	w.n = keep;
	if (w.n)
		qsort(w.u, w.n, sizeof(*w.u), by_guilt);
	*n = w.n;
	return w.u;
}

static void unsafe_flag_release(struct unsafe_flag *u)
{
	free(u->flag);
	free(u->evidence);
}

void unsafe_flags_free(struct unsafe_flag *u, size_t n)
{
	for (size_t i = 0; i < n; i++)
		unsafe_flag_release(&u[i]);
	free(u);
}
