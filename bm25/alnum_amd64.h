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

// ALNUM_BLOCK sets R10 to the 64-bit mask of the ASCII alphanumerics in
// the 64 bytes at SI, or jumps to NOTASCII when one of them is not ASCII
// (a byte of a multi-byte rune). X0 to X7 and R9, R11 to R13 are scratch;
// X8 to X12 hold ALNUM_CONSTS.
#define ALNUM_BLOCK(NOTASCII) \
	MOVOU 0(SI), X0       \
	MOVOU 16(SI), X1      \
	MOVOU 32(SI), X2      \
	MOVOU 48(SI), X3      \
	MOVO  X0, X4          \
	POR   X1, X4          \
	POR   X2, X4          \
	POR   X3, X4          \
	PMOVMSKB X4, R9       \
	TESTL R9, R9          \
	JNZ   NOTASCII        \
	CLASSIFY(X0, R10)     \
	CLASSIFY(X1, R11)     \
	CLASSIFY(X2, R12)     \
	CLASSIFY(X3, R13)     \
	SHLQ $16, R11         \
	SHLQ $32, R12         \
	SHLQ $48, R13         \
	ORQ  R11, R10         \
	ORQ  R13, R12         \
	ORQ  R12, R10
