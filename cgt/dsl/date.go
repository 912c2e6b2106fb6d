package dsl

import "github.com/cgt-tools/cgt/cgt/model"

// dateProblem says why a token is not a date.
type dateProblem int

const (
	dateOK      dateProblem = iota
	dateForm                // not YYYY-MM-DD
	dateNotReal             // well formed, but no such day (2024-02-30)
)

// parseDate reads a strict YYYY-MM-DD date without going through time.Parse, which matters
// when a ledger has a million lines.
func parseDate(b []byte) (model.Date, dateProblem) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, dateForm
	}
	y, ok1 := digits(b[0:4])
	m, ok2 := digits(b[5:7])
	d, ok3 := digits(b[8:10])
	if !ok1 || !ok2 || !ok3 {
		return 0, dateForm
	}
	if y < 1 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
		return 0, dateNotReal
	}
	return model.Date(daysFromCivil(y, m, d)), dateOK
}

func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// daysInMonth is the number of days in month m (1-12) of year y; 0 for a month out of range.
func daysInMonth(y, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	case 1, 3, 5, 7, 8, 10, 12:
		return 31
	}
	return 0
}

// daysFromCivil counts days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
// (H. Hinnant's algorithm), valid for y >= 1.
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int) (y, m, d int) {
	z += 719468
	era := z / 146097
	if z < 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// appendDate writes the date as YYYY-MM-DD.
func appendDate(b []byte, date model.Date) []byte {
	y, m, d := civilFromDays(int(date))
	if y < 0 || y > 9999 {
		return append(b, date.String()...)
	}
	return append(b,
		byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-',
		byte('0'+d/10), byte('0'+d%10))
}
