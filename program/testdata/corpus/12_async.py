import asyncio


async def fetch(n):
    await asyncio.sleep(0)
    return n * 2


async def gather(ns):
    results = []
    async for item in aiter_items(ns):
        results.append(await fetch(item))
    async with lock() as guard:
        results.append(guard)
    return results


async def aiter_items(ns):
    for n in ns:
        yield n


class lock:
    async def __aenter__(self):
        return 1

    async def __aexit__(self, *exc):
        return False
