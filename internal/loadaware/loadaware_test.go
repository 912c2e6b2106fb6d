package loadaware

import (
	"testing"
	"time"
)

func TestBoundIsNeverLessThanAsked(t *testing.T) {
	if got := Bound(time.Second); got < time.Second {
		t.Errorf("Bound(1s) = %v", got)
	}
}
