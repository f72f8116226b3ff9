// llama_ref: a Llama decoder made of ggml operations, one token a step,
// with the graph llama.cpp builds for general.architecture = llama when the
// KV cache is f32 and flash attention is off (V kept transposed, the KQ mask
// over the cache padded to KVPAD cells), on one thread. It feeds the given
// ids and writes the logits after each as little-endian float32
// [steps, vocab]. With GREEDY=n it goes on from the last id greedily until
// n tokens have been fed and prints the ids it chose. With DUMP=file it also
// writes the named intermediate tensors of every step (records of: int32
// step, 64-byte name, int32 count, count float32s).
//
// It exists to measure corelane against ggml built two ways on the same
// machine (bench/ggmlref/run.sh); it is not part of corelane.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ggml.h"
#include "ggml-cpu.h"
#include "gguf.h"

static struct ggml_context *wctx;
static struct gguf_context *g;

static struct ggml_tensor *W(const char *fmt, int l) {
    char name[128];
    snprintf(name, sizeof name, fmt, l);
    struct ggml_tensor *t = ggml_get_tensor(wctx, name);
    if (!t) { fprintf(stderr, "missing tensor %s\n", name); exit(1); }
    return t;
}

static long u32key(const char *k, long def) {
    int64_t id = gguf_find_key(g, k);
    if (id < 0) return def;
    return gguf_get_val_u32(g, id);
}
static float f32key(const char *k, float def) {
    int64_t id = gguf_find_key(g, k);
    if (id < 0) return def;
    return gguf_get_val_f32(g, id);
}

#define MAXDUMP 256
static struct ggml_tensor *dumps[MAXDUMP];
static int ndump;
static void mark(struct ggml_tensor *t, const char *fmt, int l) {
    char name[64];
    snprintf(name, sizeof name, fmt, l);
    ggml_set_name(t, name);
    if (ndump < MAXDUMP) dumps[ndump++] = t;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: llama_ref MODEL.gguf IDS(comma/space) OUT.f32 [kv_size]\n"); return 2; }
    struct gguf_init_params p = { .no_alloc = false, .ctx = &wctx };
    g = gguf_init_from_file(argv[1], p);
    if (!g) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    ggml_cpu_init();
    const int n_embd = u32key("llama.embedding_length", 0);
    const int n_layer = u32key("llama.block_count", 0);
    const int n_head = u32key("llama.attention.head_count", 0);
    const int n_head_kv = u32key("llama.attention.head_count_kv", n_head);
    const int n_ctx_orig = u32key("llama.context_length", 0);
    const int hd = n_embd / n_head;
    const int n_rot = u32key("llama.rope.dimension_count", hd);
    const float eps = f32key("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    const float base = f32key("llama.rope.freq_base", 10000.0f);
    const int n_embd_kv = hd * n_head_kv;
    struct ggml_tensor *tok_embd = W("token_embd.weight", 0);
    struct ggml_tensor *out_w = ggml_get_tensor(wctx, "output.weight");
    if (!out_w) out_w = tok_embd;
    const int n_vocab = tok_embd->ne[1];

    enum { MAXIDS = 4096 };
    int ids[MAXIDS], n = 0;
    for (char *s = strtok(argv[2], " ,\n"); s; s = strtok(NULL, " ,\n")) {
        char *end;
        long id = strtol(s, &end, 10);
        if (*end || id < 0 || id >= n_vocab) { fprintf(stderr, "llama_ref: id %s is not in [0, %d)\n", s, n_vocab); return 1; }
        if (n == MAXIDS) { fprintf(stderr, "llama_ref: more than %d ids\n", MAXIDS); return 1; }
        ids[n++] = (int)id;
    }
    if (n == 0) { fprintf(stderr, "llama_ref: no ids\n"); return 1; }
    const int kv_size = argc > 4 ? atoi(argv[4]) : 512;
    const int pad = getenv("KVPAD") ? atoi(getenv("KVPAD")) : 32;
    const int greedy = getenv("GREEDY") ? atoi(getenv("GREEDY")) : 0;
    const int steps = greedy > n ? greedy : n;
    if (kv_size < 1 || steps > kv_size || steps > MAXIDS || pad < 1) {
        fprintf(stderr, "llama_ref: %d steps need kv_size ≥ %d (have %d, at most %d steps), KVPAD ≥ 1\n", steps, steps, kv_size, MAXIDS);
        return 1;
    }

    struct ggml_init_params cp = { .mem_size = (size_t)n_layer * 2 * kv_size * n_embd_kv * 4 + 1024 * 1024, .mem_buffer = NULL, .no_alloc = false };
    struct ggml_context *cctx = ggml_init(cp);
    struct ggml_tensor *kc[64], *vc[64];
    for (int l = 0; l < n_layer; l++) {
        kc[l] = ggml_new_tensor_2d(cctx, GGML_TYPE_F32, n_embd_kv, kv_size);
        vc[l] = ggml_new_tensor_2d(cctx, GGML_TYPE_F32, kv_size, n_embd_kv);
        memset(kc[l]->data, 0, ggml_nbytes(kc[l]));
        memset(vc[l]->data, 0, ggml_nbytes(vc[l]));
    }
    FILE *out = fopen(argv[3], "wb");
    FILE *dump = getenv("DUMP") ? fopen(getenv("DUMP"), "wb") : NULL;
    for (int pos = 0; pos < n; pos++) {
        struct ggml_init_params sp = { .mem_size = 64 * 1024 * 1024, .mem_buffer = NULL, .no_alloc = false };
        struct ggml_context *ctx = ggml_init(sp);
        struct ggml_cgraph *gf = ggml_new_graph_custom(ctx, 4096, false);
        ndump = 0;
        struct ggml_tensor *tok = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
        ((int32_t *)tok->data)[0] = ids[pos];
        struct ggml_tensor *ptens = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, 1);
        ((int32_t *)ptens->data)[0] = pos;
        int n_kv = ((pos + 1 + pad - 1) / pad) * pad;
        if (n_kv > kv_size) n_kv = kv_size;
        struct ggml_tensor *mask = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, n_kv, 1);
        for (int j = 0; j < n_kv; j++) ((float *)mask->data)[j] = j <= pos ? 0.0f : -INFINITY;

        struct ggml_tensor *x = ggml_get_rows(ctx, tok_embd, tok);
        for (int l = 0; l < n_layer; l++) {
            struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, eps), W("blk.%d.attn_norm.weight", l));
            mark(cur, "attn_in.%d", l);
            struct ggml_tensor *q = ggml_mul_mat(ctx, W("blk.%d.attn_q.weight", l), cur);
            struct ggml_tensor *k = ggml_mul_mat(ctx, W("blk.%d.attn_k.weight", l), cur);
            struct ggml_tensor *v = ggml_mul_mat(ctx, W("blk.%d.attn_v.weight", l), cur);
            mark(q, "q.%d", l); mark(k, "k.%d", l); mark(v, "v.%d", l);
            q = ggml_rope_ext(ctx, ggml_reshape_3d(ctx, q, hd, n_head, 1), ptens, NULL, n_rot, 0, n_ctx_orig, base, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
            k = ggml_rope_ext(ctx, ggml_reshape_3d(ctx, k, hd, n_head_kv, 1), ptens, NULL, n_rot, 0, n_ctx_orig, base, 1.0f, 0.0f, 1.0f, 32.0f, 1.0f);
            struct ggml_tensor *kdst = ggml_view_1d(ctx, kc[l], n_embd_kv, (size_t)pos * kc[l]->nb[1]);
            struct ggml_tensor *vdst = ggml_view_2d(ctx, vc[l], 1, n_embd_kv, vc[l]->nb[1], (size_t)pos * sizeof(float));
            ggml_build_forward_expand(gf, ggml_cpy(ctx, ggml_reshape_1d(ctx, k, n_embd_kv), kdst));
            ggml_build_forward_expand(gf, ggml_cpy(ctx, ggml_transpose(ctx, ggml_reshape_2d(ctx, v, n_embd_kv, 1)), vdst));
            struct ggml_tensor *kv = ggml_view_3d(ctx, kc[l], hd, n_kv, n_head_kv, kc[l]->nb[1], hd * sizeof(float), 0);
            struct ggml_tensor *vv = ggml_view_3d(ctx, vc[l], n_kv, hd, n_head_kv, vc[l]->nb[1], vc[l]->nb[1] * hd, 0);
            struct ggml_tensor *kq = ggml_mul_mat(ctx, kv, ggml_permute(ctx, q, 0, 2, 1, 3));
            kq = ggml_soft_max_ext(ctx, kq, mask, 1.0f / sqrtf((float)hd), 0.0f);
            struct ggml_tensor *kqv = ggml_mul_mat(ctx, vv, kq);
            cur = ggml_cont_2d(ctx, ggml_permute(ctx, kqv, 0, 2, 1, 3), n_embd, 1);
            mark(cur, "attn_out.%d", l);
            cur = ggml_mul_mat(ctx, W("blk.%d.attn_output.weight", l), cur);
            struct ggml_tensor *ffn_inp = ggml_add(ctx, cur, x);
            mark(ffn_inp, "ffn_inp.%d", l);
            cur = ggml_mul(ctx, ggml_rms_norm(ctx, ffn_inp, eps), W("blk.%d.ffn_norm.weight", l));
            mark(cur, "ffn_in.%d", l);
            struct ggml_tensor *up = ggml_mul_mat(ctx, W("blk.%d.ffn_up.weight", l), cur);
            struct ggml_tensor *gate = ggml_mul_mat(ctx, W("blk.%d.ffn_gate.weight", l), cur);
            cur = ggml_swiglu_split(ctx, gate, up);
            mark(cur, "ffn_h.%d", l);
            cur = ggml_mul_mat(ctx, W("blk.%d.ffn_down.weight", l), cur);
            x = ggml_add(ctx, cur, ffn_inp);
            mark(x, "l_out.%d", l);
        }
        struct ggml_tensor *cur = ggml_mul(ctx, ggml_rms_norm(ctx, x, eps), W("output_norm.weight", 0));
        mark(cur, "out_in.%d", 0);
        struct ggml_tensor *logits = ggml_mul_mat(ctx, out_w, cur);
        ggml_build_forward_expand(gf, logits);
        if (ggml_graph_compute_with_ctx(ctx, gf, 1) != GGML_STATUS_SUCCESS) { fprintf(stderr, "compute failed\n"); return 1; }
        fwrite(logits->data, sizeof(float), n_vocab, out);
        if (pos == n - 1 && n < greedy) {
            const float *lg = logits->data; int best = 0;
            for (int j = 1; j < n_vocab; j++) if (lg[j] > lg[best]) best = j;
            ids[n++] = best;
            printf("%d%c", best, n == greedy ? '\n' : ' ');
        }
        if (dump) {
            for (int i = 0; i < ndump; i++) {
                char name[64] = {0};
                snprintf(name, sizeof name, "%s", dumps[i]->name);
                int32_t ne = (int32_t)ggml_nelements(dumps[i]);
                int32_t ps = pos;
                fwrite(&ps, 4, 1, dump);
                fwrite(name, 64, 1, dump);
                fwrite(&ne, 4, 1, dump);
                fwrite(dumps[i]->data, 4, ne, dump);
            }
        }
        ggml_free(ctx);
    }
    fclose(out);
    if (dump) fclose(dump);
    return 0;
}
