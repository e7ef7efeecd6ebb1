import { IDE_EMPTY_TEMPLATE, IDE_SAMPLE_TEMPLATES } from "#contract/ide-codes.ts";
import type { Deps } from "#backend/deps.ts";
import marketDomain from "#backend/domains/market/index.ts";

/**
 * The templates a workspace starts from (docs/decisions/044): the portal's Solidity samples, written here as the
 * files they give (path → source). Their names and descriptions are translated in locales/<lng>/ide.json.
 */

export type Template = {
  templateId: string;
  origin: "sample" | "market";
  title: string | null;
  files: Record<string, string>;
};

const SPDX = "// SPDX-License-Identifier: MIT";

const SAMPLES: Record<(typeof IDE_SAMPLE_TEMPLATES)[number] | typeof IDE_EMPTY_TEMPLATE, Record<string, string>> = {
  storage: {
    "contracts/SimpleStorage.sol": `${SPDX}
pragma solidity ^0.8.20;

/// @title A number kept on chain: anyone may change it, and every change is announced.
contract SimpleStorage {
    uint256 private value;

    event ValueChanged(address indexed by, uint256 previous, uint256 current);

    constructor(uint256 initial) {
        value = initial;
    }

    /// Replaces the number.
    function set(uint256 next) external {
        emit ValueChanged(msg.sender, value, next);
        value = next;
    }

    /// Adds to the number.
    function add(uint256 amount) external {
        uint256 previous = value;
        value = previous + amount;
        emit ValueChanged(msg.sender, previous, value);
    }

    /// The number now.
    function get() external view returns (uint256) {
        return value;
    }
}
`,
  },
  erc20: {
    "contracts/PortalToken.sol": `${SPDX}
pragma solidity ^0.8.20;

import "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import "@openzeppelin/contracts/access/Ownable.sol";

/// @title A fungible token (ERC-20, OpenZeppelin): the deployer holds the first supply and may mint more.
contract PortalToken is ERC20, Ownable {
    constructor(uint256 initialSupply) ERC20("Portal Token", "PTK") Ownable(msg.sender) {
        _mint(msg.sender, initialSupply * 10 ** decimals());
    }

    /// New tokens for an address; only the owner may mint.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
`,
  },
  events: {
    "contracts/Guestbook.sol": `${SPDX}
pragma solidity ^0.8.20;

import "./lib/Counters.sol";

/// @title A guestbook: each entry is an event with its number, its author and its text.
contract Guestbook {
    using Counters for Counters.Counter;

    Counters.Counter private entries;

    event Signed(uint256 indexed number, address indexed author, string text);
    event Cleared(address indexed by, uint256 entries);

    /// Writes an entry; answers its number.
    function sign(string calldata text) external returns (uint256) {
        require(bytes(text).length > 0, "empty entry");
        uint256 number = entries.next();
        emit Signed(number, msg.sender, text);
        return number;
    }

    /// How many entries were written.
    function count() external view returns (uint256) {
        return entries.current();
    }
}
`,
    "contracts/lib/Counters.sol": `${SPDX}
pragma solidity ^0.8.20;

/// @title A counter that only goes up, imported by Guestbook.sol.
library Counters {
    struct Counter {
        uint256 value;
    }

    function current(Counter storage counter) internal view returns (uint256) {
        return counter.value;
    }

    /// Counts one more; answers the new value.
    function next(Counter storage counter) internal returns (uint256) {
        counter.value += 1;
        return counter.value;
    }
}
`,
  },
  empty: {
    "contracts/Contract.sol": `${SPDX}
pragma solidity ^0.8.20;

contract Contract {
}
`,
  },
};

/**
 * Every template a user may start a workspace from: the Solidity samples, then the published Solidity entries
 * of the chaincode market (backend/domains/market) as `market:<id>`, titled with their name and version.
 */
export async function listIdeTemplates(deps: Deps): Promise<Template[]> {
  const ids: (keyof typeof SAMPLES)[] = [...IDE_SAMPLE_TEMPLATES, IDE_EMPTY_TEMPLATE];
  const samples = ids.map((templateId): Template => ({
    templateId,
    origin: "sample",
    title: null,
    files: SAMPLES[templateId],
  }));
  const market = (await marketDomain.api.solidityTemplates(deps)).map((p): Template => ({
    templateId: `market:${p.marketPackageId}`,
    origin: "market",
    title: `${p.name} ${p.version}`,
    files: p.files,
  }));
  return [...samples, ...market];
}
