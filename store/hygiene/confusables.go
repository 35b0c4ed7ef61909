package hygiene

// confusables maps the Cyrillic and Greek letters most often mistaken for
// Latin ones to the Latin letter they look like: the lower-case entries
// (and, folded, upper-case ones) of Unicode's confusables.txt
// (https://www.unicode.org/Public/security/latest/confusables.txt, UTS
// #39) whose target is one Latin letter a–z. Names are case-folded before
// the table is read, so only lower-case source letters appear.
var confusables = map[rune]rune{
	// Cyrillic
	'а': 'a', // U+0430
	'в': 'b', // U+0432 (folded В)
	'с': 'c', // U+0441
	'ԁ': 'd', // U+0501
	'е': 'e', // U+0435
	'һ': 'h', // U+04BB
	'н': 'h', // U+043D (folded Н)
	'і': 'i', // U+0456
	'ј': 'j', // U+0458
	'к': 'k', // U+043A (folded К)
	'ӏ': 'l', // U+04CF
	'м': 'm', // U+043C (folded М)
	'о': 'o', // U+043E
	'р': 'p', // U+0440
	'ԛ': 'q', // U+051B
	'ѕ': 's', // U+0455
	'т': 't', // U+0442 (folded Т)
	'ս': 'u', // U+057D (Armenian)
	'ѵ': 'v', // U+0475
	'ԝ': 'w', // U+051D
	'х': 'x', // U+0445
	'у': 'y', // U+0443
	'ү': 'y', // U+04AF
	// Greek
	'α': 'a', // U+03B1
	'β': 'b', // U+03B2 (folded Β)
	'ε': 'e', // U+03B5 (folded Ε)
	'η': 'n', // U+03B7
	'ι': 'i', // U+03B9
	'κ': 'k', // U+03BA
	'ν': 'v', // U+03BD
	'ο': 'o', // U+03BF
	'ρ': 'p', // U+03C1
	'τ': 't', // U+03C4 (folded Τ)
	'υ': 'u', // U+03C5
	'χ': 'x', // U+03C7
	'ζ': 'z', // U+03B6 (folded Ζ)
	'μ': 'm', // U+03BC (folded Μ)
}
