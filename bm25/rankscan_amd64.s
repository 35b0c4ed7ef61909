//go:build amd64 && !purego

#include "textflag.h"
#include "alnum_amd64.h"

// func alnumBlocksSSE2(dst *uint64, s string, n int) int
TEXT ·alnumBlocksSSE2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ s_base+8(FP), SI
	MOVQ n+24(FP), CX
	XORQ AX, AX
	ALNUM_CONSTS(R8)

loop:
	CMPQ AX, CX
	JGE  done
	ALNUM_BLOCK(done) // not ASCII: a byte of a multi-byte rune
	MOVQ R10, (DI)(AX*8)
	INCQ AX
	ADDQ $64, SI
	JMP  loop

done:
	MOVQ AX, ret+32(FP)
	RET

// func stopLooksAsm(text string, i int, places []uint32, stops *[512]uint32, alnum *[256]uint32) uint32
//
// stopLooksGo, the same steps: per place p = i + u, x the eight bytes
// from p (or the text's last eight, shifted, near its end), the key cut
// after two bytes, or three or four when those are alphanumerics
// (alnum), and one look into the stopword table.
TEXT ·stopLooksAsm(SB), NOSPLIT, $0-68
	MOVQ text_base+0(FP), SI
	MOVQ text_len+8(FP), DX
	SUBQ $8, DX // from a place past n-8 fewer than eight bytes are left
	MOVQ i+16(FP), R8
	MOVQ places_base+24(FP), DI
	MOVQ places_len+32(FP), BX
	LEAQ (DI)(BX*4), BX
	MOVQ stops+48(FP), R13
	MOVQ alnum+56(FP), R9
	XORL AX, AX

stoploop:
	CMPQ DI, BX
	JAE  stopdone
	MOVL (DI), R10
	ADDQ $4, DI
	ADDQ R8, R10
	CMPQ R10, DX
	JGT  stoptail
	MOVQ (SI)(R10*1), R10

stopkey:
	MOVQ    R10, R11
	SHRQ    $16, R11
	MOVBQZX R11, R11
	MOVL    (R9)(R11*4), R11 // 0xff if the third byte is an alphanumeric
	MOVQ    R10, R12
	SHRQ    $24, R12
	MOVBQZX R12, R12
	MOVL    (R9)(R12*4), R12
	ANDL    R11, R12         // 0xff if the fourth is too
	SHLL    $16, R11
	SHLL    $24, R12
	ORL     R12, R11
	ORL     $0xffff, R11
	ORL     $0x20202020, R10
	ANDL    R11, R10         // the key
	IMUL3L  $-0x61c8864f, R10, R11 // stopMul, 0x9E3779B1
	SHRL    $23, R11         // 32 - stopTableBits
	MOVL    (R13)(R11*4), R11
	XORL    R10, R11         // 0 if a stopword
	LEAL    -1(R11), R12
	NOTL    R11
	ANDL    R12, R11
	SHRL    $31, R11
	ADDL    R11, AX
	JMP     stoploop

stoptail:
	MOVQ R10, CX
	SUBQ DX, CX // p - (n-8): 1 to 7
	SHLQ $3, CX
	MOVQ (SI)(DX*1), R10
	SHRQ CX, R10
	JMP  stopkey

stopdone:
	MOVL AX, ret+64(FP)
	RET

// func termLooksAsm(text string, i int, places []uint32, slots *classSlot, mul uint64, shift uint, pend *uint32) (dropped uint32, terms int)
//
// termLooksGo, the same steps: per place p = i + u, x the eight bytes from
// p (or the text's last eight, shifted, near its end), the key cut at the
// first separator among them (pieceKey), its slot in the query's table
// (classTable.class), and its class: a stopword counted, a term's index
// written to pend, which moves on only for a term. i, mul and slots are
// read from the arguments, for want of registers.
TEXT ·termLooksAsm(SB), NOSPLIT, $0-96
	MOVQ text_base+0(FP), SI
	MOVQ text_len+8(FP), DX
	SUBQ $8, DX // from a place past n-8 fewer than eight bytes are left
	MOVQ places_base+24(FP), DI
	MOVQ places_len+32(FP), BX
	LEAQ (DI)(BX*4), BX
	MOVQ shift+64(FP), CX
	MOVQ pend+72(FP), R8
	XORL AX, AX

termloop:
	CMPQ DI, BX
	JAE  termdone
	MOVL (DI), R9
	ADDQ $4, DI
	ADDQ i+16(FP), R9
	CMPQ R9, DX
	JGT  termtail
	MOVQ (SI)(R9*1), R9

termkey:
	MOVQ $0x2020202020202020, R10
	ORQ  R9, R10                  // z: letters folded
	MOVQ $0x5050505050505050, R11 // 0x80 - '0'
	ADDQ R9, R11
	MOVQ $0x4646464646464646, R12 // 0x7F - '9'
	ADDQ R12, R9
	NOTQ R9
	ANDQ R9, R11                  // the digits' high bits
	MOVQ $0x1f1f1f1f1f1f1f1f, R12 // 0x80 - 'a'
	ADDQ R10, R12
	MOVQ $0x0505050505050505, R13 // 0x7F - 'z'
	ADDQ R10, R13
	NOTQ R13
	ANDQ R13, R12                 // the letters'
	ORQ  R12, R11
	NOTQ R11
	MOVQ $0x8080808080808080, R12
	ANDQ R12, R11                 // the separators'
	MOVQ R11, R12
	NEGQ R12
	ANDQ R12, R11                 // the first's
	SHRQ $7, R11
	DECQ R11
	ANDQ R10, R11                 // the key: the bytes before it
	MOVQ  R11, R12
	IMULQ mul+56(FP), R12
	SHRQ  CX, R12
	SHLQ  $4, R12                 // a classSlot is 16 bytes
	ADDQ  slots+48(FP), R12
	MOVQ  (R12), R13
	XORQ  R11, R13                // 0 if the slot holds the key
	MOVQ  R13, R9
	NEGQ  R9
	ORQ   R13, R9
	SHRQ  $63, R9
	DECL  R9
	ANDL  8(R12), R9              // the class, or 0
	MOVL  R9, R13
	ANDL  $1, R13
	ADDL  R13, AX                 // a stopword
	SHRL  $1, R9                  // 1 + the term's index, or 0
	LEAL  -1(R9), R13
	MOVL  R13, (R8)
	MOVL  R9, R13
	NEGL  R13
	ORL   R9, R13
	SHRL  $31, R13
	LEAQ  (R8)(R13*4), R8         // on only for a term
	JMP   termloop

termtail:
	MOVQ CX, R12 // the table's shift, kept
	MOVQ R9, CX
	SUBQ DX, CX  // p - (n-8): 1 to 7
	SHLQ $3, CX
	MOVQ (SI)(DX*1), R9
	SHRQ CX, R9
	MOVQ R12, CX
	JMP  termkey

termdone:
	MOVL AX, dropped+80(FP)
	SUBQ pend+72(FP), R8
	SHRQ $2, R8
	MOVQ R8, terms+88(FP)
	RET

// func findLooksAsm(m *[33]uint64, last int, carry uint64, stops, terms *[maxLooks]uint32, longs *[32]uint64, sm2, sm3, sm4, tm2, tm3, tm4, tm5, tm6, tm7, tm8 uint64) (tokens uint32, ns, nt int, carryOut uint64)
//
// findLooksGo's block loop, the same steps, its masks as arguments: per
// block, the pieces starting in it and those of each length from the
// alphanumerics' masks (r: a double shift of this block's and the next's),
// the tokens counted, the places of the pieces to look up written (eight
// whatever their number, then any more: past the last, BSF of 0 leaves a
// value no one reads), and the pieces of nine bytes or
// more stored in longs. It uses POPCNT: findLooks calls it only where the
// CPU has it.
TEXT ·findLooksAsm(SB), NOSPLIT, $0-160
	MOVQ m+0(FP), SI
	MOVQ last+8(FP), R8
	LEAQ (SI)(R8*8), R8
	MOVQ R8, last+8(FP) // now the end of the blocks
	MOVQ stops+24(FP), BX
	MOVQ terms+32(FP), DX
	XORQ AX, AX

blk:
	CMPQ SI, last+8(FP)
	JAE  blkdone
	MOVQ (SI), R10     // cur
	MOVQ 8(SI), R11    // next
	LEAQ (R10)(R10*1), CX
	ORQ  carry+16(FP), CX
	NOTQ CX
	ANDQ R10, CX       // g1: the pieces starting in the block
	MOVQ R10, R8
	SHRQ $63, R8
	MOVQ R8, carry+16(FP)
	MOVQ R10, DI
	SHRQ $1, R11, DI   // r1
	ANDQ DI, CX        // g2: those of two bytes or more, the tokens but stopwords
	POPCNTQ CX, R8
	ADDQ R8, AX
	XORQ R12, R12      // the places to look up among the stopwords
	XORQ R15, R15      // those to look up in the query's table
	MOVQ R10, DI
	SHRQ $2, R11, DI // r2: byte 2 of a piece from here is an alphanumeric
	MOVQ DI, R8
	NOTQ R8
	ANDQ CX, R8        // e2: the pieces of exactly 2 bytes
	MOVQ R8, R9
	ANDQ sm2+48(FP), R9
	ORQ  R9, R12
	ANDQ tm2+72(FP), R8
	ORQ  R8, R15
	ANDQ DI, CX        // g3
	MOVQ R10, DI
	SHRQ $3, R11, DI // r3: byte 3 of a piece from here is an alphanumeric
	MOVQ DI, R8
	NOTQ R8
	ANDQ CX, R8        // e3: the pieces of exactly 3 bytes
	MOVQ R8, R9
	ANDQ sm3+56(FP), R9
	ORQ  R9, R12
	ANDQ tm3+80(FP), R8
	ORQ  R8, R15
	ANDQ DI, CX        // g4
	MOVQ R10, DI
	SHRQ $4, R11, DI // r4: byte 4 of a piece from here is an alphanumeric
	MOVQ DI, R8
	NOTQ R8
	ANDQ CX, R8        // e4: the pieces of exactly 4 bytes
	MOVQ R8, R9
	ANDQ sm4+64(FP), R9
	ORQ  R9, R12
	ANDQ tm4+88(FP), R8
	ORQ  R8, R15
	ANDQ DI, CX        // g5
	MOVQ R10, DI
	SHRQ $5, R11, DI // r5: byte 5 of a piece from here is an alphanumeric
	MOVQ DI, R8
	NOTQ R8
	ANDQ CX, R8        // e5: the pieces of exactly 5 bytes
	ANDQ tm5+96(FP), R8
	ORQ  R8, R15
	ANDQ DI, CX        // g6
	MOVQ R10, DI
	SHRQ $6, R11, DI // r6: byte 6 of a piece from here is an alphanumeric
	MOVQ DI, R8
	NOTQ R8
	ANDQ CX, R8        // e6: the pieces of exactly 6 bytes
	ANDQ tm6+104(FP), R8
	ORQ  R8, R15
	ANDQ DI, CX        // g7
	MOVQ R10, DI
	SHRQ $7, R11, DI // r7: byte 7 of a piece from here is an alphanumeric
	MOVQ DI, R8
	NOTQ R8
	ANDQ CX, R8        // e7: the pieces of exactly 7 bytes
	ANDQ tm7+112(FP), R8
	ORQ  R8, R15
	ANDQ DI, CX        // g8
	MOVQ R10, DI
	SHRQ $8, R11, DI // r8: byte 8 of a piece from here is an alphanumeric
	MOVQ DI, R8
	NOTQ R8
	ANDQ CX, R8        // e8: the pieces of exactly 8 bytes
	ANDQ tm8+120(FP), R8
	ORQ  R8, R15
	ANDQ DI, CX        // g9
	MOVQ SI, R13
	SUBQ m+0(FP), R13  // 8 × the block's index
	MOVQ R13, R8
	ADDQ longs+40(FP), R8
	MOVQ CX, (R8)      // g9: the pieces of nine bytes or more
	SHLQ $3, R13       // u: the block's place in the chunk
	POPCNTQ R12, R9
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 0(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 4(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 8(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 12(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 16(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 20(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 24(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	BSFQ  R12, R8
	ADDL  R13, R8
	MOVL  R8, 28(BX)
	LEAQ  -1(R12), R8
	ANDQ  R8, R12
	TESTQ R12, R12
	JNZ   stoprest
stopcont:
	LEAQ  (BX)(R9*4), BX
	POPCNTQ R15, R9
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 0(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 4(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 8(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 12(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 16(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 20(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 24(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	BSFQ  R15, R8
	ADDL  R13, R8
	MOVL  R8, 28(DX)
	LEAQ  -1(R15), R8
	ANDQ  R8, R15
	TESTQ R15, R15
	JNZ   termrest
termcont:
	LEAQ  (DX)(R9*4), DX
	ADDQ $8, SI
	JMP  blk

stoprest: // more than eight places in the block
	LEAQ 32(BX), DI
stoprestloop:
	BSFQ R12, R8
	ADDL R13, R8
	MOVL R8, (DI)
	ADDQ $4, DI
	LEAQ -1(R12), R8
	ANDQ R8, R12
	JNZ  stoprestloop
	JMP  stopcont

termrest:
	LEAQ 32(DX), DI
termrestloop:
	BSFQ R15, R8
	ADDL R13, R8
	MOVL R8, (DI)
	ADDQ $4, DI
	LEAQ -1(R15), R8
	ANDQ R8, R15
	JNZ  termrestloop
	JMP  termcont

blkdone:
	MOVL AX, tokens+128(FP)
	SUBQ stops+24(FP), BX
	SHRQ $2, BX
	MOVQ BX, ns+136(FP)
	SUBQ terms+32(FP), DX
	SHRQ $2, DX
	MOVQ DX, nt+144(FP)
	MOVQ carry+16(FP), R8
	MOVQ R8, carryOut+152(FP)
	RET

// func cpuidPOPCNT() bool
TEXT ·cpuidPOPCNT(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $23, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET
