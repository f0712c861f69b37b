/** The little of autocannon's API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | undefined;
    connections?: number;
    duration?: number;
  }
  interface Result {
    latency: { p50: number; p99: number; average: number };
    requests: { average: number };
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
