// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// The DDC collection of one open-alliance project (docs/decisions/045): OpenZeppelin's ERC-721 with a token URI
/// per token. The account that deployed it owns it and names the project's other accounts that may mint.
contract DDC is ERC721URIStorage, Ownable {
  event MinterSet(address indexed account, bool allowed);

  mapping(address => bool) public isMinter;

  error NotMinter(address account);

  constructor(string memory name_) ERC721(name_, "DDC") Ownable(msg.sender) {
    isMinter[msg.sender] = true;
    emit MinterSet(msg.sender, true);
  }

  function setMinter(address account, bool allowed) external onlyOwner {
    isMinter[account] = allowed;
    emit MinterSet(account, allowed);
  }

  /// Mints token `tokenId` to `to` with its metadata URI; only a minter may.
  function mint(address to, uint256 tokenId, string calldata uri) external {
    if (!isMinter[msg.sender]) revert NotMinter(msg.sender);
    _mint(to, tokenId);
    _setTokenURI(tokenId, uri);
  }
}
