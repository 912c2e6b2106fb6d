// Package model holds the vocabulary of the tax domain: dates, money, quantities, transactions
// and the domain error type. It does no I/O and imports nothing from the front ends.
package model
