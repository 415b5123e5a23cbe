/* evalcache.c - see evalcache.h */
#include "search/evalcache.h"

#include "analysis/store_search.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

void eval_result_release(struct eval_result *r)
{
	free(r->detail);
	free(r->batch);
	memset(r, 0, sizeof(*r));
}

void eval_result_baseline(struct eval_result *r)
{
	r->obj = 1.0;
	r->status = OUTCOME_OK;
	r->detail = xstrdup("the baseline");
	r->batch = xstrdup("");
}

/* Keep the first failed write's cause (the search stops on it); the
 * store keeps only its last. */
static int kept(struct evalcache *ec, int rc)
{
	if (rc && !ec->why.len) {
		sb_add(&ec->why, store_errmsg(&ec->store));
		ec->code = ec->store.code;
		ec->sys_errno = ec->store.sys_errno;
	}
	return rc ? -1 : 0;
}

int evalcache_check(const struct evalcache *ec, struct strbuf *err)
{
	if (!ec->why.len)
		return 0;
	sb_addf(err, "%s: cannot store search results: %s (%s, then run the search again: it resumes)",
		ec->path, sb_str(&ec->why), store_hint(ec->code, ec->sys_errno));
	return -1;
}

int evalcache_open(struct evalcache *ec, const char *path, const char *context,
		   const char *description, struct strbuf *err)
{
	memset(ec, 0, sizeof(*ec));
	/* as the store's own lock: a link planted there is never followed */
	ec->lock_fd = store_open_lock_file(path, ".search.lock", err);
	if (ec->lock_fd < 0)
		return -1;
	if (flock(ec->lock_fd, LOCK_EX | LOCK_NB)) {
		sb_addf(err, "%s: another flagscope search uses it (wait for it, or use another --db)",
			path);
		close(ec->lock_fd);
		ec->lock_fd = -1;
		return -1;
	}
	/* the tables are the store's (analysis/store.c makes them) */
	if (store_open(&ec->store, path, 1, err)) {
		evalcache_close(ec);
		return -1;
	}
	ec->path = xstrdup(path);
	ec->context = xstrdup(context);
	kept(ec, store_search_context_put(&ec->store, context, description));
	if (evalcache_check(ec, err)) {
		evalcache_close(ec);
		return -1;
	}
	return 0;
}

void evalcache_close(struct evalcache *ec)
{
	store_close(&ec->store);
	if (ec->lock_fd > 0)
		close(ec->lock_fd);
	free(ec->path);
	free(ec->context);
	sb_release(&ec->why);
	memset(ec, 0, sizeof(*ec));
}

int evalcache_get(struct evalcache *ec, const char *flags, struct eval_result *res)
{
	struct store_search_eval e;
	if (!store_search_eval_get(&ec->store, ec->context, flags, &e))
		return 0;
	*res = (struct eval_result){.obj = e.obj, .status = e.status, .detail = e.detail,
				    .batch = e.batch};
	return 1;
}

int evalcache_put(struct evalcache *ec, const char *flags, const struct eval_result *res)
{
	struct store_search_eval e = {.obj = res->obj, .status = res->status,
				      .detail = res->detail, .batch = res->batch};
	return kept(ec, store_search_eval_put(&ec->store, ec->context, flags, &e));
}

struct each_ctx {
	evalcache_fn fn;
	void *user;
};

static void each_eval(void *user, const char *flags, const struct store_search_eval *e)
{
	struct each_ctx *c = user;
	struct eval_result r = {.obj = e->obj, .status = e->status, .detail = e->detail,
				.batch = e->batch};
	c->fn(c->user, flags, &r);
}

void evalcache_each(struct evalcache *ec, evalcache_fn fn, void *user)
{
	struct each_ctx c = {fn, user};
	store_search_evals_each(&ec->store, ec->context, each_eval, &c);
}

void search_row_release(struct search_row *r)
{
	free(r->strategy);
	free(r->best_flags);
	free(r->state);
	memset(r, 0, sizeof(*r));
}

int evalcache_search_load(struct evalcache *ec, const char *id, struct search_row *row)
{
	struct store_search_row s;
	int found = store_search_row_get(&ec->store, id, &s);
	*row = (struct search_row){.strategy = s.strategy, .seed = s.seed, .evals = s.evals,
				   .elapsed = s.elapsed, .best_flags = s.best_flags,
				   .best_obj = s.best_obj, .state = s.state};
	return found;
}

int evalcache_search_save(struct evalcache *ec, const char *id, const struct search_row *row)
{
	struct store_search_row s = {.strategy = row->strategy, .seed = row->seed,
				     .evals = row->evals, .elapsed = row->elapsed,
				     .best_flags = row->best_flags, .best_obj = row->best_obj,
				     .state = row->state};
	return kept(ec, store_search_row_put(&ec->store, id, ec->context, &s));
}

int evalcache_trace_put(struct evalcache *ec, const char *id, size_t seq, const char *flags,
			double obj)
{
	return kept(ec, store_search_trace_add(&ec->store, id, seq, flags, obj));
}

void evalcache_trace_get(struct evalcache *ec, const char *id, char ***flags, double **obj,
			 size_t *n)
{
	store_search_trace_get(&ec->store, id, flags, obj, n);
}

void evalcache_probes_get(struct evalcache *ec, const char *toolchain, struct strlist *probed,
			  struct strlist *rejected)
{
	store_search_probes_get(&ec->store, toolchain, probed, rejected);
}

int evalcache_probe_put(struct evalcache *ec, const char *toolchain, const char *flag,
			const char *message)
{
	return kept(ec, store_search_probe_put(&ec->store, toolchain, flag, message));
}

int evalcache_drops_get(struct evalcache *ec, const char *id, struct strlist *flags)
{
	return store_search_drops_get(&ec->store, id, flags);
}

int evalcache_drops_put(struct evalcache *ec, const char *id, const struct strlist *flags)
{
	return kept(ec, store_search_drops_put(&ec->store, id, flags));
}
