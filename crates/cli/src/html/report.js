// The league report page (below).
