declare module "proxy-addr" {
  type Trust = (addr: string, hop: number) => boolean;
  interface RequestLike {
    headers: Record<string, string | undefined>;
    socket: { remoteAddress?: string };
    connection: { remoteAddress?: string };
  }
  function proxyaddr(req: RequestLike, trust: Trust | string | string[]): string;
  namespace proxyaddr {
    function all(req: RequestLike, trust?: Trust | string | string[]): string[];
    function compile(val: string | string[]): Trust;
  }
  export = proxyaddr;
}
