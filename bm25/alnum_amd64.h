// The ASCII alphanumerics' masks shared by rankscan_amd64.s (search's
// one-shot count) and buildscan_amd64.s (the index build's block scan).

// ALNUM_CONSTS loads the constants CLASSIFY compares with into X8 to X12,
// through the general register T: 0x20 in every byte (folds case), then
// 'a' - 1, 'z' + 1, '0' - 1 and '9' + 1 in every byte.
#define ALNUM_CONSTS(T) \
	MOVQ $0x2020202020202020, T \
	MOVQ T, X8                  \
	PUNPCKLQDQ X8, X8           \
	MOVQ $0x6060606060606060, T \
	MOVQ T, X9                  \
	PUNPCKLQDQ X9, X9           \
	MOVQ $0x7b7b7b7b7b7b7b7b, T \
	MOVQ T, X10                 \
	PUNPCKLQDQ X10, X10         \
	MOVQ $0x2f2f2f2f2f2f2f2f, T \
	MOVQ T, X11                 \
	PUNPCKLQDQ X11, X11         \
	MOVQ $0x3a3a3a3a3a3a3a3a, T \
	MOVQ T, X12                 \
	PUNPCKLQDQ X12, X12

// CLASSIFY sets R to the 16-bit mask of the ASCII alphanumerics among the
// bytes of X (every one below 0x80, so the signed compares are unsigned
// ones): letters are x|0x20 in 'a'..'z', digits x in '0'..'9'.
// X5 to X7 are scratch; X8 to X12 hold ALNUM_CONSTS.
#define CLASSIFY(X, R) \
	MOVO    X, X5      \
	POR     X8, X5     \
	MOVO    X5, X6     \
	PCMPGTB X9, X6     \
	MOVO    X10, X7    \
	PCMPGTB X5, X7     \
	PAND    X7, X6     \
	MOVO    X, X5      \
	PCMPGTB X11, X5    \
	MOVO    X12, X7    \
	PCMPGTB X, X7      \
	PAND    X7, X5     \
	POR     X5, X6     \
	PMOVMSKB X6, R
