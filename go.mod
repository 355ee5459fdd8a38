module github.com/millengine/millengine

go 1.26

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/coder/websocket v1.8.14
	github.com/klauspost/compress v1.20.4
	github.com/rs/zerolog v1.35.1
	github.com/spf13/pflag v1.0.10
	golang.org/x/sys v0.29.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
)
