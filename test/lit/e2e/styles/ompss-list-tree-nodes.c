// OmpSs pointer-chasing codes written with css pragmas: the master walks a
// linked list and a binary tree and spawns one task per node, naming whole
// structs through their pointers (`inout(*it)`, `input(*a) inout(*b)`,
// `input(*l, *r) inout(*n)`), so the dependences follow the nodes. Between
// passes the master unlinks and frees list items after `#pragma css taskwait
// on(*prev)` (the freed item may still be read by tasks in flight), and the
// bottom-up tree sum, submitted in a post-order walk, is waited for with
// `taskwait on(*root)`. The node structs hold the links the master follows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %cc -Wno-unknown-pragmas %s -o %t/seq
// RUN: timeout 60 %t/seq > %t/expected
// RUN: %gpuss-cc %s -o %t/par
// RUN: timeout 60 %run-configs %t/expected %t/par
// RUN: CSS_STATS=1 timeout 60 %t/par 2>&1 >/dev/null | FileCheck --check-prefix=STATS %s
// RUN: FileCheck %s < %t/expected
// STATS: css-stats: tasks={{[1-9]}}
// CHECK: list length 40
// CHECK: list length after unlinking
// CHECK: tree nodes
// CHECK: root sum
// CHECK: checksum

#include <stdio.h>
#include <stdlib.h>

#define NX 8

struct item {
	int id;
	double x[NX];
	struct item *next;
};

struct node {
	long key;
	double value;
	double sum;
	int size;
	struct node *left, *right;
};

#pragma css task inout(*it) input(step)
void relax_item(struct item *it, int step);

#pragma css task input(*a) inout(*b)
void blend(struct item *a, struct item *b);

#pragma css task inout(*n) input(f)
void scale_node(struct node *n, double f);

#pragma css task inout(*n)
void sum_leaf(struct node *n);

#pragma css task input(*c) inout(*n)
void sum_one(struct node *c, struct node *n);

#pragma css task input(*l, *r) inout(*n)
void sum_two(struct node *l, struct node *r, struct node *n);

static unsigned long seed = 88172645463325252UL;

static unsigned long next_random(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

static struct item *build_list(int n)
{
	struct item *head = NULL, **tail = &head;
	int i, k;

	for (i = 0; i < n; i++) {
		struct item *it = (struct item *)xmalloc(sizeof *it);
		it->id = i;
		for (k = 0; k < NX; k++)
			it->x[k] = (double)(next_random() % 1000) / 100.0;
		it->next = NULL;
		*tail = it;
		tail = &it->next;
	}
	return head;
}

static int list_length(struct item *p)
{
	int n = 0;
	for (; p; p = p->next)
		n++;
	return n;
}

/* an unbalanced tree: a node has no, one or two children */
static struct node *build_tree(int depth, int *count)
{
	struct node *n;

	if (depth <= 0)
		return NULL;
	n = (struct node *)xmalloc(sizeof *n);
	++*count;
	n->key = (long)(next_random() % 100000);
	n->value = (double)(n->key % 997) / 10.0;
	n->sum = 0.0;
	n->size = 0;
	n->left = build_tree(depth - 1 - (int)(next_random() % 3 == 0), count);
	n->right = next_random() % 4 == 0 ? NULL : build_tree(depth - 1, count);
	return n;
}

/* pre-order: one task per node */
static void scale_tree(struct node *n, double f)
{
	if (!n)
		return;
	scale_node(n, f);
	scale_tree(n->left, f * 1.5);
	scale_tree(n->right, f * 0.5);
}

/* post-order: a node's task after its children's */
static void sum_tree(struct node *n)
{
	if (!n)
		return;
	sum_tree(n->left);
	sum_tree(n->right);
	if (n->left && n->right)
		sum_two(n->left, n->right, n);
	else if (n->left)
		sum_one(n->left, n);
	else if (n->right)
		sum_one(n->right, n);
	else
		sum_leaf(n);
}

static double tree_checksum(struct node *n, int depth)
{
	if (!n)
		return 0.0;
	return n->sum * (depth % 3 + 1) + n->size + tree_checksum(n->left, depth + 1) +
	       tree_checksum(n->right, depth + 1);
}

static void free_tree(struct node *n)
{
	if (!n)
		return;
	free_tree(n->left);
	free_tree(n->right);
	free(n);
}

int main(void)
{
	struct item *head, *p, *prev;
	struct node *root;
	int step, k, nodes = 0;
	double checksum = 0.0;

	head = build_list(40);
	printf("list length %d\n", list_length(head));

	for (step = 0; step < 3; step++)
		for (p = head; p; p = p->next)
			relax_item(p, step);
	for (p = head; p && p->next; p = p->next)
		blend(p, p->next);

	/* drop every third item; the master writes prev->next itself */
	prev = head;
	k = 1;
	while (prev && prev->next) {
		struct item *victim = prev->next;
		if (k % 3 == 2) {
#pragma css taskwait on(*prev)
			prev->next = victim->next;
			free(victim);
		} else {
			prev = victim;
		}
		k++;
	}
	printf("list length after unlinking %d\n", list_length(head));
	for (p = head; p; p = p->next)
		relax_item(p, 7);

	root = build_tree(9, &nodes);
	printf("tree nodes %d\n", nodes);
	scale_tree(root, 1.0);
	sum_tree(root);
#pragma css taskwait on(*root)
	printf("root sum %.4f size %d\n", root->sum, root->size);

#pragma css barrier
	for (p = head; p; p = p->next) {
		for (k = 0; k < NX; k++)
			checksum += p->x[k] * (k + 1);
		printf("item %d x0 %.4f\n", p->id, p->x[0]);
	}
	checksum += tree_checksum(root, 0);
	printf("checksum %.4f\n", checksum);

	while (head) {
		p = head->next;
		free(head);
		head = p;
	}
	free_tree(root);
	return 0;
}

void relax_item(struct item *it, int step)
{
	int k;
	double prev = it->x[NX - 1];

	for (k = 0; k < NX; k++) {
		double cur = it->x[k];
		it->x[k] = 0.5 * cur + 0.25 * prev + 0.125 * (step + it->id % 5);
		prev = cur;
	}
}

void blend(struct item *a, struct item *b)
{
	int k;

	for (k = 0; k < NX; k++)
		b->x[k] = 0.75 * b->x[k] + 0.25 * a->x[NX - 1 - k];
}

void scale_node(struct node *n, double f)
{
	n->value = n->value * f + (double)(n->key % 7);
}

void sum_leaf(struct node *n)
{
	n->sum = n->value;
	n->size = 1;
}

void sum_one(struct node *c, struct node *n)
{
	n->sum = n->value + 0.5 * c->sum;
	n->size = 1 + c->size;
}

void sum_two(struct node *l, struct node *r, struct node *n)
{
	n->sum = n->value + 0.5 * (l->sum + r->sum);
	n->size = 1 + l->size + r->size;
}
