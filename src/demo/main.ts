const USAGE = 'usage: demo <server> [options]   (no demo servers are built yet)'

process.stderr.write(`${USAGE}\n`)
process.exit(2)
