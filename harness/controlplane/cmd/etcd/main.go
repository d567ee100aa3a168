// Command etcd runs the upstream etcd server; the wrapper exists because etcd's own main
// package lives in a module that cannot be required without its local replace directives.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
