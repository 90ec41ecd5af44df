/*
 * kd_eval_terms.h - the King Down evaluation's terms and its capture search (kd_eval.c),
 * written once and included twice by kd_eval.c: with KD_W(name), KD_WTYPE(group, type)
 * and KD_WPASSED(phase, rank) giving each weight as a constant (the search's evaluation)
 * or read from the array w (tuning), and KD_T(f) naming each copy's functions. The
 * includer defines the four macros; this file undefines them.
 */
/* One pawn's structure and advance; eg is the end-game weight, 0..256. */
static int KD_T(pawn_score)(const int *w, const KdPos *p, int col, int sq, int eg)
{
    (void)w; // unused where the weights are constants
    const uint64_t own = kd_pieces(p, col, KD_PAWN);
    const uint64_t theirs = kd_pieces(p, col ^ 1, KD_PAWN);
    const int f = kd_file(sq), adv = kd_rel_rank(col, sq);
    int mg_s = adv * KD_W(pawn_advance_mg), eg_s = adv * adv * KD_W(pawn_advance_eg);
    if ((f == 3 || f == 4) && (adv == 3 || adv == 4))
        mg_s += KD_W(centre_pawn);
    if (own & file_bb(f) & ~kd_bit(sq))
        mg_s -= KD_W(doubled), eg_s -= KD_W(doubled);
    const uint64_t beside = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
    if ((own & beside) == 0)
        mg_s -= KD_W(isolated), eg_s -= KD_W(isolated);
    if ((theirs & passed_span(col, sq)) == 0)
        mg_s += KD_WPASSED(mg, adv), eg_s += KD_WPASSED(eg, adv);
    return (mg_s * (256 - eg) + eg_s * eg) / 256;
}

static int KD_T(side_score)(const int *w, const KdConfig *c, const KdPos *p, int col, int eg,
                      int *big_material)
{
    (void)w; // unused where the weights are constants
    const uint64_t own = p->side[col];
    int score = 0, big = 0;
    if (bits_count(kd_pieces(p, col, KD_BISHOP)) >= 2)
        score += KD_W(bishop_pair);
    for (uint64_t b = own & ~p->bb[KD_KING]; b;) {
        const int sq = bits_pop(&b);
        const int type = kd_type_at(p, sq);
        const int value = KD_WTYPE(VALUE, type);
        score += value;
        if (type == KD_PAWN) {
            score += KD_T(pawn_score)(w, p, col, sq, eg);
            continue;
        }
        big += value;
        score += KD_WTYPE(CENTRE, type) * centrality(sq);
        score += KD_WTYPE(MOBILITY, type) * bits_count(reach(c, p, sq, type, col) & ~own);
        if (type == KD_ROOK && kd_rel_rank(col, sq) == 6)
            score += KD_W(rook_seventh);
    }
    *big_material = big;
    score += KD_W(token) * p->tokens[col];
    return score;
}

/* King safety: attacked squares around the king, shelter in front while it matters. */
static int KD_T(king_score)(const int *w, const KdConfig *c, const KdPos *p, int col, int enemy_big)
{
    (void)w; // unused where the weights are constants
    const int k = p->king[col];
    const int them = col ^ 1;
    if (enemy_big < ENDGAME_MATERIAL)
        return KD_W(king_centre_eg) * centrality(k);
    int score = KD_W(king_centre_mg) * centrality(k);
    if (kd_rel_rank(col, k) <= 1)
        score += KD_W(king_home);
    const uint64_t ring = c->king[k];
    const uint64_t shelter = ring & p->side[col] & (p->bb[KD_PAWN] | p->bb[KD_GUARD]);
    score += KD_W(king_shelter) * bits_count(shelter);
    int attacked = 0;
    for (uint64_t b = ring; b;) {
        const int sq = bits_pop(&b);
        attacked += kd_attackers(c, p, sq, them, p->bb[KD_EMPTY]) != 0;
    }
    score += KD_W(king_attacked) * attacked;
    return score;
}

static int KD_T(static_eval)(const int *w, const KdConfig *c, const KdPos *p)
{
    (void)w; // unused where the weights are constants
    int big[2];
    const int eg = endgame_weight(p);
    const int s0 = KD_T(side_score)(w, c, p, 0, eg, &big[0]);
    const int s1 = KD_T(side_score)(w, c, p, 1, eg, &big[1]);
    const int k0 = KD_T(king_score)(w, c, p, 0, big[1]);
    const int k1 = KD_T(king_score)(w, c, p, 1, big[0]);
    const int white = s0 + k0 - s1 - k1;
    return (p->turn == 0 ? white : -white) + KD_W(tempo);
}

static int KD_T(qsearch)(const int *w, const KdConfig *c, const KdPos *p, int alpha, int beta,
                   int depth)
{
    (void)w; // unused where the weights are constants
    const int stand = KD_T(static_eval)(w, c, p);
    if (stand >= beta || depth == 0)
        return stand;
    if (stand > alpha)
        alpha = stand;
    Move moves[KD_MAX_MOVES];
    const int n = kd_gen_captures(c, p, moves);
    Move caps[KD_MAX_MOVES];
    int score[KD_MAX_MOVES];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const int g = gain(p, moves[i]);
        if (g == 0)
            continue;
        const int attacker = kd_kind(moves[i]) == KD_MV_SHOT ? 0 : VALUE[kd_type_at(p, kd_from(moves[i]))];
        caps[nc] = moves[i];
        score[nc++] = g * 16 - attacker / 16;
    }
    for (int i = 0; i < nc; i++) {
        // Selection sort as we go: the best victim first.
        int best = i;
        for (int j = i + 1; j < nc; j++)
            if (score[j] > score[best])
                best = j;
        const Move m = caps[best];
        caps[best] = caps[i];
        score[best] = score[i];
        KdPos q = *p;
        kd_apply(c, &q, m);
        const int v = q.turn == p->turn ? KD_T(qsearch)(w, c, &q, alpha, beta, depth - 1)
                                        : -KD_T(qsearch)(w, c, &q, -beta, -alpha, depth - 1);
        if (v >= beta)
            return v;
        if (v > alpha)
            alpha = v;
    }
    return alpha;
}

#undef KD_T
#undef KD_W
#undef KD_WTYPE
#undef KD_WPASSED
