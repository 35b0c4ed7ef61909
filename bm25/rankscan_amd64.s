//go:build amd64 && !purego

#include "textflag.h"

// CLASSIFY sets R to the 16-bit mask of the ASCII alphanumerics among the
// bytes of X (every one below 0x80, so the signed compares are unsigned
// ones): letters are x|0x20 in 'a'..'z', digits x in '0'..'9'.
// X5 to X7 are scratch; X8 to X12 hold the constants.
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

// func alnumBlocksSSE2(dst *uint64, s string, n int) int
TEXT ·alnumBlocksSSE2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ s_base+8(FP), SI
	MOVQ n+24(FP), CX
	XORQ AX, AX
	MOVQ $0x2020202020202020, R8
	MOVQ R8, X8
	PUNPCKLQDQ X8, X8
	MOVQ $0x6060606060606060, R8 // 'a' - 1
	MOVQ R8, X9
	PUNPCKLQDQ X9, X9
	MOVQ $0x7b7b7b7b7b7b7b7b, R8 // 'z' + 1
	MOVQ R8, X10
	PUNPCKLQDQ X10, X10
	MOVQ $0x2f2f2f2f2f2f2f2f, R8 // '0' - 1
	MOVQ R8, X11
	PUNPCKLQDQ X11, X11
	MOVQ $0x3a3a3a3a3a3a3a3a, R8 // '9' + 1
	MOVQ R8, X12
	PUNPCKLQDQ X12, X12

loop:
	CMPQ AX, CX
	JGE  done
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVO  X0, X4
	POR   X1, X4
	POR   X2, X4
	POR   X3, X4
	PMOVMSKB X4, R9
	TESTL R9, R9
	JNZ   done // a byte of a multi-byte rune
	CLASSIFY(X0, R10)
	CLASSIFY(X1, R11)
	CLASSIFY(X2, R12)
	CLASSIFY(X3, R13)
	SHLQ $16, R11
	SHLQ $32, R12
	SHLQ $48, R13
	ORQ  R11, R10
	ORQ  R13, R12
	ORQ  R12, R10
	MOVQ R10, (DI)(AX*8)
	INCQ AX
	ADDQ $64, SI
	JMP  loop

done:
	MOVQ AX, ret+32(FP)
	RET
