// The compare page (below).
