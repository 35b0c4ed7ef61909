//go:build amd64 && !purego

#include "textflag.h"

// func asciiPrefix(s string) int
//
// asciiPrefixGo: 64 bytes a step while none has its high bit set, then 16
// at a time up to the first 16-byte chunk that has one or the last whole
// chunk; past that, the last 16 bytes of s.
TEXT ·asciiPrefix(SB), NOSPLIT, $0-24
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	MOVQ SI, DI
	MOVQ CX, DX
	ANDQ $-64, DX
	ADDQ SI, DX        // the end of the whole 64-byte blocks

ap64:
	CMPQ SI, DX
	JAE  ap16
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	POR   X1, X0
	POR   X3, X2
	POR   X2, X0
	PMOVMSKB X0, AX
	TESTL AX, AX
	JNZ   ap16         // a high bit in this block: find its chunk
	ADDQ  $64, SI
	JMP   ap64

ap16:
	MOVQ CX, DX
	ANDQ $-16, DX
	ADDQ DI, DX        // the end of the whole 16-byte chunks

ap16loop:
	CMPQ SI, DX
	JAE  aplast
	MOVOU (SI), X0
	PMOVMSKB X0, AX
	TESTL AX, AX
	JNZ  apdone
	ADDQ $16, SI
	JMP  ap16loop

aplast:
	LEAQ (DI)(CX*1), DX // the end of s
	CMPQ SI, DX
	JAE  apdone         // all of s, in whole chunks
	CMPQ CX, $16
	JLT  apdone
	MOVOU -16(DX), X0   // the last 16 bytes: the rest of s among them
	PMOVMSKB X0, AX
	TESTL AX, AX
	JNZ  apdone
	MOVQ DX, SI         // all of s

apdone:
	SUBQ DI, SI
	MOVQ SI, ret+16(FP)
	RET

// func prefetchLines(s string, from, to int) int
//
// PREFETCHT0 of every 64th byte of s from from while below to (which is at
// most len(s)); it returns where it stopped. A prefetch reads nothing the
// program sees and never faults.
TEXT ·prefetchLines(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ from+16(FP), AX
	MOVQ to+24(FP), CX

pfloop:
	CMPQ AX, CX
	JGE  pfdone
	PREFETCHT0 (SI)(AX*1)
	ADDQ $64, AX
	JMP  pfloop

pfdone:
	MOVQ AX, ret+32(FP)
	RET
