package model

import (
	"fmt"
	"time"

	json "github.com/cgt-tools/cgt/internal/jsonx"
)

// Date is a civil date (no time of day, no zone), stored as days since 1970-01-01 so that
// comparing and sorting millions of transactions is integer work.
type Date int32

// NewDate builds a Date from its parts. It does not validate: use ParseDate for user input.
func NewDate(year int, month time.Month, day int) Date {
	t := time.Date(year, month, day, 0, 0, 0, 0, time.UTC)
	return Date(t.Unix() / 86400)
}

// ParseDate reads a strict YYYY-MM-DD date and rejects impossible days such as 2024-02-30.
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, fmt.Errorf("date %q is not in the form YYYY-MM-DD", s)
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return 0, fmt.Errorf("date %q is not a real calendar date", s)
	}
	return Date(t.Unix() / 86400), nil
}

// Time returns the date as midnight UTC.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// Year returns the calendar year.
func (d Date) Year() int { return d.Time().Year() }

// Month returns the calendar month.
func (d Date) Month() time.Month { return d.Time().Month() }

// Day returns the day of the month.
func (d Date) Day() int { return d.Time().Day() }

// AddDays returns the date n days later (earlier when n is negative).
func (d Date) AddDays(n int) Date { return d + Date(n) }

// String formats the date as YYYY-MM-DD.
func (d Date) String() string { return d.Time().Format("2006-01-02") }

// RecordType names the field type of a Date in a rendered record.
func (Date) RecordType() string { return "date" }

// MarshalJSON writes the date as a "YYYY-MM-DD" string.
func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a "YYYY-MM-DD" string; null and other types are rejected.
func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if string(b) == "null" {
		return fmt.Errorf("date must be a string YYYY-MM-DD, not null")
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("date must be a string YYYY-MM-DD")
	}
	v, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}
