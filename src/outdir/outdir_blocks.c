/* outdir_blocks.c — the output directory's pool of spare blocks (see
 * outdir_impl.h), shared by the caller and the writing thread. */
#include "outdir/outdir_impl.h"
#include "util/forkguard.h"

void *outdir_block_take(struct outdir *d)
{
	pthread_mutex_lock(&d->lock);
	struct block *b = d->spare;
	if (b)
		d->spare = b->next;
	pthread_mutex_unlock(&d->lock);
	return b ? (void *)b : fork_private_alloc(OUTDIR_BLOCK);
}

void outdir_block_give(struct outdir *d, void *p)
{
	struct block *b = p;
	pthread_mutex_lock(&d->lock);
	b->next = d->spare;
	d->spare = b;
	pthread_mutex_unlock(&d->lock);
}

void outdir_blocks_give_locked(struct outdir *d, struct block *first, struct block *last)
{
	last->next = d->spare;
	d->spare = first;
}

void outdir_blocks_free(struct outdir *d)
{
	while (d->spare) {
		struct block *b = d->spare;
		d->spare = b->next;
		fork_private_free(b, OUTDIR_BLOCK);
	}
}
