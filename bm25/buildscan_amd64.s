//go:build amd64 && !purego

#include "textflag.h"
#include "alnum_amd64.h"

// BOUND writes the position of ev's (R11's) lowest set bit, u + its
// index, at OFF(DI), and clears the bit. Past ev's last bit BSFQ leaves
// R9 undefined: such entries lie past the bounds counted, and are
// overwritten later.
#define BOUND(OFF) \
	BSFQ R11, R9       \
	ADDL R8, R9        \
	MOVL R9, OFF(DI)   \
	LEAQ -1(R11), R13  \
	ANDQ R13, R11

// BOUNDBMI is BOUND with BMI1's TZCNT and BLSR: one instruction fewer a
// bound, and the chain from one bound to the next one cycle rather than
// two.
#define BOUNDBMI(OFF) \
	TZCNTQ R11, R9     \
	ADDL R8, R9        \
	MOVL R9, OFF(DI)   \
	BLSRQ R11, R11

// func blockBoundsAsm(dst *uint32, s string, blocks int, u uint32, carry uint64, bmi1 bool) (k, written int, carryOut uint64)
//
// blockBoundsGo, the same steps: per block, its alphanumerics' mask as
// alnumBlocksSSE2 finds it (stopping before a block with a byte of 0x80
// or more), the events ev = word ^ (word<<1 | carry>>7), their count by
// POPCNT and their positions written eight at a time, BSF and clear (with
// bmi1, TZCNT and BLSR).
TEXT ·blockBoundsAsm(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), DI
	MOVQ s_base+8(FP), SI
	MOVQ blocks+24(FP), CX
	MOVL u+32(FP), R8
	MOVQ carry+40(FP), BX
	MOVBQZX bmi1+48(FP), DX
	MOVQ DI, R14
	XORQ AX, AX
	ALNUM_CONSTS(R9)

bbloop:
	CMPQ AX, CX
	JGE  bbdone
	ALNUM_BLOCK(bbdone) // not ASCII: a byte of a multi-byte rune
	// R10, word: the block's alphanumerics
	MOVQ R10, R11
	SHLQ $1, R11
	SHRQ $7, BX
	ORQ  BX, R11
	XORQ R10, R11  // ev: the starts and ends
	MOVQ R10, BX
	SHRQ $63, BX
	SHLQ $7, BX    // the carry into the next block
	POPCNTQ R11, R12
	LEAQ (DI)(R12*4), R12 // the end of the block's bounds
	TESTQ DX, DX
	JNZ  bbwritebmi

bbwrite:
	CMPQ DI, R12
	JAE  bbnext
	BOUND(0)
	BOUND(4)
	BOUND(8)
	BOUND(12)
	BOUND(16)
	BOUND(20)
	BOUND(24)
	BOUND(28)
	ADDQ $32, DI
	JMP  bbwrite

bbwritebmi:
	CMPQ DI, R12
	JAE  bbnext
	BOUNDBMI(0)
	BOUNDBMI(4)
	BOUNDBMI(8)
	BOUNDBMI(12)
	BOUNDBMI(16)
	BOUNDBMI(20)
	BOUNDBMI(24)
	BOUNDBMI(28)
	ADDQ $32, DI
	JMP  bbwritebmi

bbnext:
	MOVQ R12, DI
	ADDQ $64, SI
	ADDL $64, R8
	INCQ AX
	JMP  bbloop

bbdone:
	MOVQ AX, k+56(FP)
	SUBQ R14, DI
	SHRQ $2, DI
	MOVQ DI, written+64(FP)
	MOVQ BX, carryOut+72(FP)
	RET

// func lookKnownAsm(at []uint32, s string, cs *shortCache, cp *pairCache, tf []uint32, buf *uint32, masks *[18]uint64) (took, added int)
//
// lookKnownGo, the same steps: per pair of at, the piece's key from one
// load (up to eight bytes, probed in cs: 16-byte slots, 1<<12 of them)
// or two (nine to 16, probed in cp: 24-byte slots, 1<<10), its count in
// tf raised, its id written at buf[added] and added raised when the count
// was 0. A piece it cannot take ends the run before it.
TEXT ·lookKnownAsm(SB), NOSPLIT, $0-112
	MOVQ at_base+0(FP), DI
	MOVQ at_len+8(FP), BX
	ANDQ $-2, BX
	LEAQ (DI)(BX*4), BX   // the end of the pairs
	MOVQ s_base+24(FP), SI
	MOVQ s_len+32(FP), DX
	SUBQ $8, DX           // the last place eight bytes can be read from
	MOVQ cs+40(FP), R8
	MOVQ cp+48(FP), R9
	MOVQ tf_base+56(FP), R10
	XORQ R12, R12         // added
	MOVQ buf+80(FP), R11
	MOVQ masks+88(FP), R13
	MOVQ $0x9E3779B97F4A7C15, R14 // fibMul
	CMPQ DI, BX
	JAE  lkdone

lkloop:
	MOVL (DI), AX         // lo
	MOVL 4(DI), CX
	SUBL AX, CX           // n, the piece's length
	CMPQ CX, $8
	JHI  lkpair
	CMPQ AX, DX
	JGT  lkdone           // fewer than eight bytes from lo
	MOVQ (SI)(AX*1), R15
	ANDQ (R13)(CX*8), R15
	ORQ  72(R13)(CX*8), R15 // the key
	MOVQ R15, AX
	IMULQ R14, AX
	SHRQ $52, AX          // 64 - shortCacheBits
	SHLQ $4, AX           // the home slot's offset

lkshort:
	MOVQ (R8)(AX*1), CX
	CMPQ CX, R15
	JNE  lkshortnext
	MOVL 8(R8)(AX*1), AX  // t

lkcount:
	CMPQ AX, tf_len+64(FP)
	JAE  lkdone           // no count for t
	MOVL (R10)(AX*4), CX  // c
	INCL (R10)(AX*4)
	MOVL AX, (R11)(R12*4)
	CMPL CX, $1
	ADCQ $0, R12          // c was 0: the first occurrence
	ADDQ $8, DI
	CMPQ DI, BX
	JCS  lkloop
	JMP  lkdone

lkshortnext:
	TESTQ CX, CX
	JEQ   lkdone          // not there
	ADDQ  $16, AX
	ANDQ  $0xffff, AX     // 16 * shortCacheSize - 1
	JMP   lkshort

lkpair:
	CMPQ CX, $16
	JHI  lkdone
	LEAQ -8(DX), R15
	CMPQ AX, R15
	JGT  lkdone           // fewer than 16 bytes from lo
	MOVQ 8(SI)(AX*1), R15
	ANDQ -64(R13)(CX*8), R15 // lowBytes[n-8]
	ORQ  8(R13)(CX*8), R15   // b
	MOVQ (SI)(AX*1), AX
	ORQ  136(R13), AX        // a
	MOVQ R15, CX
	ROLQ $29, CX
	XORQ AX, CX
	IMULQ R14, CX
	SHRQ $54, CX             // 64 - pairCacheBits
	LEAQ (CX)(CX*2), CX
	SHLQ $3, CX              // the home slot's offset

lkpairprobe:
	CMPQ 8(R9)(CX*1), R15
	JNE  lkpairnext
	CMPQ (R9)(CX*1), AX
	JNE  lkpairnext
	MOVL 16(R9)(CX*1), AX    // t
	JMP  lkcount

lkpairnext:
	CMPQ 8(R9)(CX*1), $0
	JEQ  lkdone              // not there
	ADDQ $24, CX
	CMPQ CX, $24576          // 24 * pairCacheSize
	JCS  lkpairprobe
	XORQ CX, CX
	JMP  lkpairprobe

lkdone:
	MOVQ at_base+0(FP), AX
	SUBQ AX, DI
	SHRQ $3, DI
	MOVQ DI, took+96(FP)
	MOVQ R12, added+104(FP)
	RET

// func cpuidBMI1() bool
TEXT ·cpuidBMI1(SB), NOSPLIT, $0-1
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JLT  nobmi1        // no leaf 7
	MOVL $7, AX
	XORL CX, CX
	CPUID
	SHRL $3, BX
	ANDL $1, BX
	MOVB BX, ret+0(FP)
	RET

nobmi1:
	MOVB $0, ret+0(FP)
	RET
